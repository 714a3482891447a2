import SigilASN1
import SigilBase
import SigilCore

/// SubjectPublicKeyInfo (RFC 5280 §4.1.2.7; EC keys per RFC 5480 §2):
///
/// ```
/// SubjectPublicKeyInfo ::= SEQUENCE {
///     algorithm         AlgorithmIdentifier,
///     subjectPublicKey  BIT STRING }
/// ```
/// For EC keys the algorithm is id-ecPublicKey with a named curve and the BIT STRING holds the
/// SEC 1 point (uncompressed or compressed).
public struct SubjectPublicKeyInfo: Hashable, Sendable {
    /// The key's algorithm and its parameters (the named curve of an EC key).
    public let algorithm: AlgorithmIdentifier
    /// The encoded public key.
    public let subjectPublicKey: ASN1BitString

    /// A SubjectPublicKeyInfo of `algorithm` and `subjectPublicKey`.
    public init(algorithm: AlgorithmIdentifier, subjectPublicKey: ASN1BitString) {
        self.algorithm = algorithm
        self.subjectPublicKey = subjectPublicKey
    }

    /// Decodes a SubjectPublicKeyInfo SEQUENCE.
    public init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        algorithm = try AlgorithmIdentifier(node: reader.next(.sequence))
        subjectPublicKey = try ASN1BitString(node: reader.next(.bitString))
        try reader.finish()
    }

    /// Decodes the DER of a SubjectPublicKeyInfo, with nothing after it.
    public init<Bytes: Collection>(derEncoded bytes: Bytes) throws(SigilKeysError) where Bytes.Element == UInt8 {
        do {
            self = try SubjectPublicKeyInfo(node: DER.parse(bytes))
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: "SubjectPublicKeyInfo")
        }
    }

    /// The DER encoding.
    public var derRepresentation: [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { seq in
            algorithm.encode(into: &seq)
            seq.append(subjectPublicKey)
        }
        return writer.bytes
    }
}

extension ECDSAPublicKey {
    /// From a DER SubjectPublicKeyInfo with id-ecPublicKey and a P-256 or P-384 named curve.
    public init<Bytes: Collection>(spkiDER bytes: Bytes) throws(SigilKeysError) where Bytes.Element == UInt8 {
        try self.init(spki: SubjectPublicKeyInfo(derEncoded: bytes))
    }

    /// From a decoded SubjectPublicKeyInfo with id-ecPublicKey and a P-256 or P-384 named curve.
    public init(spki: SubjectPublicKeyInfo) throws(SigilKeysError) {
        guard spki.algorithm.algorithm == KeyOIDs.ecPublicKey else {
            throw SigilKeysError(.unsupportedAlgorithm, "public key algorithm \(spki.algorithm.algorithm) is not id-ecPublicKey")
        }
        let oid = try spki.algorithm.namedCurveParameter()
        guard let curve = KeyOIDs.curve(oid) else {
            throw SigilKeysError(.unsupportedAlgorithm, "curve \(oid) is not P-256 or P-384")
        }
        guard spki.subjectPublicKey.unusedBits == 0 else {
            throw SigilKeysError(.malformed, "the EC point BIT STRING must have no unused bits")
        }
        do {
            try self.init(sec1Representation: spki.subjectPublicKey.bytes, curve: curve)
        } catch {
            throw SigilKeysError(.invalidKey, "EC point: \(error.reason)")
        }
    }

    /// SubjectPublicKeyInfo with the uncompressed point (what openssl and Apple write).
    public var spki: SubjectPublicKeyInfo {
        let parameters = DER.encode(KeyOIDs.oid(curve))
        let bits = ASN1BitString(wholeBytes: uncompressedRepresentation)
        return SubjectPublicKeyInfo(
            algorithm: AlgorithmIdentifier(algorithm: KeyOIDs.ecPublicKey, parameters: parameters),
            subjectPublicKey: bits)
    }

    /// The key as a DER SubjectPublicKeyInfo.
    public var spkiDER: [UInt8] { spki.derRepresentation }

    /// The key as PEM ("PUBLIC KEY").
    public var pemRepresentation: String { PEMDocument(label: "PUBLIC KEY", derBytes: spkiDER).pemString }
}
