import SigilASN1
import SigilBase
import SigilCore

/// RSASSA-PSS-params (RFC 4055 §3.1, RFC 8017 §A.2.3):
///
/// ```
/// RSASSA-PSS-params ::= SEQUENCE {
///     hashAlgorithm      [0] HashAlgorithm      DEFAULT sha1,
///     maskGenAlgorithm   [1] MaskGenAlgorithm   DEFAULT mgf1SHA1,
///     saltLength         [2] INTEGER            DEFAULT 20,
///     trailerField       [3] TrailerField       DEFAULT trailerFieldBC }
/// ```
/// All four tags are explicit. DER omits fields equal to their DEFAULT (X.690 11.5), so an encoded
/// default is refused. Hash identifiers accept NULL or absent parameters (RFC 4055 §2.1: both are
/// legal and equivalent); MGF1 is the only mask generation function; the trailer field must be 1.
public struct RSASSAPSSParameters: Hashable, Sendable {
    /// The decoded parameters: hash, MGF1 hash and salt length.
    public let parameters: RSAPublicKey.PSSParameters

    /// Wraps `parameters` for encoding.
    public init(_ parameters: RSAPublicKey.PSSParameters) { self.parameters = parameters }

    /// The largest salt length accepted (the salt can never exceed the 8192-bit modulus).
    static let maximumSaltLength = 1024

    /// Decodes RSASSA-PSS-params strictly (see above); an ASN.1 error becomes `.malformed`
    /// ("RSASSA-PSS-params").
    public init(node: ASN1Node) throws(SigilKeysError) {
        var reader: ASN1SequenceReader
        do {
            reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: RSASSAPSSParameters.context)
        }
        var hash = HashAlgorithm.sha1
        var mgfHash = HashAlgorithm.sha1
        var salt = 20
        if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
            hash = try RSASSAPSSParameters.hashAlgorithm(RSASSAPSSParameters.explicitInner(tagged, tag: .contextSpecific(0)))
            guard hash != .sha1 else { throw SigilKeysError(.malformed, "hashAlgorithm encodes its DEFAULT (SHA-1)") }
        }
        if let tagged = reader.nextIfPresent(.contextSpecific(1)) {
            let mgf: AlgorithmIdentifier
            do {
                mgf = try AlgorithmIdentifier(node: ASN1.explicitInner(tagged, tag: .contextSpecific(1)))
            } catch {
                throw SigilKeysError(wrapping: error, as: .malformed, context: RSASSAPSSParameters.context)
            }
            guard mgf.algorithm == KeyOIDs.mgf1 else {
                throw SigilKeysError(.unsupportedAlgorithm, "mask generation function \(mgf.algorithm) is not MGF1")
            }
            guard let parameters = mgf.parameters else {
                throw SigilKeysError(.malformed, "MGF1 without its hash algorithm parameter")
            }
            let parametersNode: ASN1Node
            do {
                parametersNode = try DER.parse(parameters)
            } catch {
                throw SigilKeysError(wrapping: error, as: .malformed, context: RSASSAPSSParameters.context)
            }
            mgfHash = try RSASSAPSSParameters.hashAlgorithm(parametersNode)
            guard mgfHash != .sha1 else { throw SigilKeysError(.malformed, "maskGenAlgorithm encodes its DEFAULT (MGF1 with SHA-1)") }
        }
        if let tagged = reader.nextIfPresent(.contextSpecific(2)) {
            salt = try RSASSAPSSParameters.integer(RSASSAPSSParameters.explicitInner(tagged, tag: .contextSpecific(2)))
            guard salt >= 0, salt <= RSASSAPSSParameters.maximumSaltLength else {
                throw SigilKeysError(.malformed, "PSS salt length \(salt) is out of range")
            }
            guard salt != 20 else { throw SigilKeysError(.malformed, "saltLength encodes its DEFAULT (20)") }
        }
        if let tagged = reader.nextIfPresent(.contextSpecific(3)) {
            let trailer = try RSASSAPSSParameters.integer(RSASSAPSSParameters.explicitInner(tagged, tag: .contextSpecific(3)))
            guard trailer == 1 else { throw SigilKeysError(.unsupportedAlgorithm, "PSS trailer field \(trailer) is not 1 (0xBC)") }
            throw SigilKeysError(.malformed, "trailerField encodes its DEFAULT (1)")
        }
        do {
            try reader.finish()
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: RSASSAPSSParameters.context)
        }
        parameters = RSAPublicKey.PSSParameters(hash: hash, maskGenerationHash: mgfHash, saltLength: salt)
    }

    /// What an ASN.1 error inside the parameters is reported as part of.
    static let context = "RSASSA-PSS-params"

    /// The one element inside `[tag] EXPLICIT`, an ASN.1 error reported as `.malformed`.
    static func explicitInner(_ node: ASN1Node, tag: ASN1Identifier) throws(SigilKeysError) -> ASN1Node {
        do {
            return try ASN1.explicitInner(node, tag: tag)
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: context)
        }
    }

    /// An INTEGER that fits an `Int`, an ASN.1 error reported as `.malformed`.
    static func integer(_ node: ASN1Node) throws(SigilKeysError) -> Int {
        do {
            return try ASN1Integer(node: node).intValue()
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: context)
        }
    }

    /// Decodes the DER of RSASSA-PSS-params, with nothing after it.
    public init<Bytes: Collection>(derEncoded bytes: Bytes) throws(SigilKeysError) where Bytes.Element == UInt8 {
        let node: ASN1Node
        do {
            node = try DER.parse(bytes)
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: RSASSAPSSParameters.context)
        }
        self = try RSASSAPSSParameters(node: node)
    }

    /// A hash AlgorithmIdentifier: SHA-1/256/384/512 with NULL or absent parameters.
    static func hashAlgorithm(_ node: ASN1Node) throws(SigilKeysError) -> HashAlgorithm {
        let identifier: AlgorithmIdentifier
        do {
            identifier = try AlgorithmIdentifier(node: node)
        } catch {
            throw SigilKeysError(wrapping: error, as: .malformed, context: context)
        }
        guard let hash = KeyOIDs.hash(identifier.algorithm) else {
            throw SigilKeysError(.unsupportedAlgorithm, "hash algorithm \(identifier.algorithm) is not SHA-1, SHA-256, SHA-384 or SHA-512")
        }
        if let parameters = identifier.parameters, parameters != [0x05, 0x00] {
            throw SigilKeysError(.malformed, "hash algorithm parameters must be NULL or absent")
        }
        return hash
    }

    /// DER, with defaults omitted and hash parameters written as NULL.
    public var derRepresentation: [UInt8] {
        func hashIdentifier(_ hash: HashAlgorithm) -> AlgorithmIdentifier {
            AlgorithmIdentifier(algorithm: KeyOIDs.oid(hash), parameters: [0x05, 0x00])
        }
        var writer = DERWriter()
        writer.appendSequence { seq in
            if parameters.hash != .sha1 {
                seq.appendConstructed(.contextSpecific(0)) { hashIdentifier(parameters.hash).encode(into: &$0) }
            }
            if parameters.maskGenerationHash != .sha1 {
                seq.appendConstructed(.contextSpecific(1)) { inner in
                    var hashWriter = DERWriter()
                    hashIdentifier(parameters.maskGenerationHash).encode(into: &hashWriter)
                    AlgorithmIdentifier(algorithm: KeyOIDs.mgf1, parameters: hashWriter.bytes).encode(into: &inner)
                }
            }
            if parameters.saltLength != 20 {
                seq.appendConstructed(.contextSpecific(2)) { $0.append(ASN1Integer(parameters.saltLength)) }
            }
        }
        return writer.bytes
    }
}
