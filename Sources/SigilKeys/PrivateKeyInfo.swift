import SigilASN1
import SigilBase
import SigilCore

/// PrivateKeyInfo / OneAsymmetricKey (PKCS #8, RFC 5208 §5 and RFC 5958 §2) — the `.p8` files
/// App Store Connect hands out:
///
/// ```
/// OneAsymmetricKey ::= SEQUENCE {
///     version                   Version,              -- v1(0) or v2(1)
///     privateKeyAlgorithm       AlgorithmIdentifier,
///     privateKey                OCTET STRING,          -- ECPrivateKey for id-ecPublicKey
///     attributes            [0] Attributes OPTIONAL,
///     ...,
///     [[2: publicKey        [1] BIT STRING OPTIONAL ]] }
/// ```
struct PrivateKeyInfo {
    let version: Int
    let algorithm: AlgorithmIdentifier
    /// The inner ECPrivateKey's DER: a `var` so that key loading can wipe it once the key is made.
    var privateKey: [UInt8]
    let attributes: [UInt8]?
    let publicKey: ASN1BitString?

    /// Decodes the structure; an ASN.1 error becomes `.malformed` ("PKCS#8").
    init(node: ASN1Node) throws(SigilKeysError) {
        var reader: ASN1SequenceReader
        let encodedVersion: ASN1Integer
        do {
            reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
            encodedVersion = try ASN1Integer(node: reader.next(.integer))
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: "PKCS#8")
        }
        guard let v = encodedVersion.int64Value, v == 0 || v == 1 else {
            throw SigilKeysError(.unsupportedVersion, "PKCS#8 version must be 0 or 1, found \(encodedVersion)")
        }
        version = Int(v)
        do {
            algorithm = try AlgorithmIdentifier(node: reader.next(.sequence))
            privateKey = try ASN1OctetString(node: reader.next(.octetString)).bytes
            attributes = reader.nextIfPresent(.contextSpecific(0)).map { Array($0.encodedBytes) }
            if let tagged = reader.nextIfPresent(.contextSpecific(1)) {
                publicKey = try ASN1BitString(node: tagged, identifier: .contextSpecific(1))
            } else {
                publicKey = nil
            }
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: "PKCS#8")
        }
        if publicKey != nil && v == 0 {
            throw SigilKeysError(.unsupportedVersion, "a PKCS#8 v1 key cannot carry a public key")
        }
        do {
            try reader.finish()
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: "PKCS#8")
        }
    }
}

extension ECDSAPrivateKey {
    /// From a DER PKCS#8 PrivateKeyInfo holding an id-ecPublicKey P-256 or P-384 key (the `.p8`
    /// AuthKey format of App Store Connect). Every embedded curve and public key must agree.
    public init<Bytes: Collection>(pkcs8DER bytes: Bytes) throws(SigilKeysError) where Bytes.Element == UInt8 {
        let node: ASN1Node
        do { node = try DER.parse(bytes) } catch { throw SigilKeysError(wrapping: error, as: .malformed, context: "PKCS#8") }
        try self.init(pkcs8Node: node)
    }

    /// PKCS#8 from parsed DER (key loading parses the bytes once and tries each format on the node).
    init(pkcs8Node node: ASN1Node) throws(SigilKeysError) {
        // The inner DER and the scalar's octets are copies of the secret: wiped once the
        // key (which keeps the scalar in storage of its own) is made.
        var info = try PrivateKeyInfo(node: node)
        defer { SecretMemory.wipe(&info.privateKey) }
        guard info.algorithm.algorithm == KeyOIDs.ecPublicKey else {
            throw SigilKeysError(.unsupportedAlgorithm, "private key algorithm \(info.algorithm.algorithm) is not id-ecPublicKey")
        }
        let oid = try info.algorithm.namedCurveParameter()
        guard let curve = KeyOIDs.curve(oid) else {
            throw SigilKeysError(.unsupportedAlgorithm, "curve \(oid) is not P-256 or P-384")
        }
        let inner: ASN1Node
        do { inner = try DER.parse(info.privateKey) } catch { throw SigilKeysError(wrapping: error, as: .malformed, context: "PKCS#8") }
        var structure = try ECPrivateKeyStructure(node: inner, context: "PKCS#8")
        defer { SecretMemory.wipe(&structure.privateKey) }
        let key = try structure.key(outerCurve: curve)
        if let outer = info.publicKey {
            guard outer.unusedBits == 0,
                outer.bytes == key.publicKey.uncompressedRepresentation
                    || outer.bytes == key.publicKey.compressedRepresentation
            else { throw SigilKeysError(.inconsistent, "the PKCS#8 public key does not match the private key") }
        }
        self = key
    }

    /// From a DER SEC 1 ECPrivateKey, which must name its curve in [0].
    public init<Bytes: Collection>(sec1DER bytes: Bytes) throws(SigilKeysError) where Bytes.Element == UInt8 {
        let node: ASN1Node
        do { node = try DER.parse(bytes) } catch { throw SigilKeysError(wrapping: error, as: .malformed, context: "ECPrivateKey") }
        try self.init(sec1Node: node)
    }

    /// SEC 1 from parsed DER.
    init(sec1Node node: ASN1Node) throws(SigilKeysError) {
        var structure = try ECPrivateKeyStructure(node: node, context: "ECPrivateKey")
        defer { SecretMemory.wipe(&structure.privateKey) }
        self = try structure.key(outerCurve: nil)
    }

    /// PKCS#8 v1 DER, as openssl writes it: the curve in the algorithm parameters and the
    /// ECPrivateKey with the public key in [1]. This exports the secret.
    public var pkcs8DER: [UInt8] {
        var inner = DERWriter()
        ECPrivateKeyStructure(
            privateKey: rawRepresentation, namedCurve: nil,
            publicKey: ASN1BitString(wholeBytes: publicKey.uncompressedRepresentation)
        ).encode(into: &inner)
        var writer = DERWriter()
        writer.appendSequence { seq in
            seq.append(ASN1Integer(0))
            AlgorithmIdentifier(algorithm: KeyOIDs.ecPublicKey, parameters: DER.encode(KeyOIDs.oid(curve))).encode(into: &seq)
            seq.append(ASN1OctetString(inner.bytes))
        }
        return writer.bytes
    }

    /// SEC 1 ECPrivateKey DER with [0] curve and [1] public key. This exports the secret.
    public var sec1DER: [UInt8] {
        var writer = DERWriter()
        ECPrivateKeyStructure(
            privateKey: rawRepresentation, namedCurve: KeyOIDs.oid(curve),
            publicKey: ASN1BitString(wholeBytes: publicKey.uncompressedRepresentation)
        ).encode(into: &writer)
        return writer.bytes
    }

    /// "PRIVATE KEY" PEM (PKCS#8).
    public var pkcs8PEM: String { PEMDocument(label: "PRIVATE KEY", derBytes: pkcs8DER).pemString }

    /// "EC PRIVATE KEY" PEM (SEC 1).
    public var sec1PEM: String { PEMDocument(label: "EC PRIVATE KEY", derBytes: sec1DER).pemString }
}
