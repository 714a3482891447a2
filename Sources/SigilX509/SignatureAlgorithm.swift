import SigilASN1
import SigilBase
import SigilCore
import SigilKeys

/// The signature algorithms of certificates, OCSP responses and CMS (RFC 5758 §3.2 for ECDSA,
/// RFC 4055 §5 / RFC 8017 §A.2 for RSA), decoded from an AlgorithmIdentifier with the parameter
/// rules of each: ECDSA with absent parameters, PKCS#1 v1.5 with NULL or absent parameters (RFC 4055 §5 requires accepting both),
/// RSASSA-PSS with its RSASSA-PSS-params. Anything else is `.unknown`, kept with its encoding.
public enum SignatureAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// ECDSA with the hash (ecdsa-with-SHA256, -SHA384, -SHA512).
    case ecdsa(HashAlgorithm)
    /// RSASSA-PKCS1-v1_5 with the hash (sha256WithRSAEncryption, …).
    case rsaPKCS1v15(HashAlgorithm)
    /// RSASSA-PSS with its parameters.
    case rsaPSS(RSAPublicKey.PSSParameters)
    /// An algorithm Sigil does not verify, kept as encoded.
    case unknown(AlgorithmIdentifier)

    /// The algorithm an AlgorithmIdentifier names (ECDSA with SHA-2, RSA PKCS#1 v1.5, RSASSA-PSS with its parameters); unknown or malformed identifiers throw.
    public init(_ identifier: AlgorithmIdentifier) throws(X509Error) {
        let oid = identifier.algorithm
        if let hash = SignatureAlgorithm.ecdsaHashes[oid] {
            guard identifier.parameters == nil else {
                throw X509Error(.malformed, "\(oid) must have absent parameters (RFC 5758 §3.2)")
            }
            self = .ecdsa(hash)
        } else if let hash = SignatureAlgorithm.rsaHashes[oid] {
            // RFC 4055 §5: "implementations MUST accept the parameters being absent as well as present" (NULL).
            guard identifier.parameters == nil || identifier.parameters == [0x05, 0x00] else {
                throw X509Error(.malformed, "\(oid) parameters must be NULL or absent (RFC 4055 §5)")
            }
            self = .rsaPKCS1v15(hash)
        } else if oid == X509OIDs.rsassaPSS {
            guard let parameters = identifier.parameters else {
                throw X509Error(.malformed, "RSASSA-PSS signature algorithm without parameters")
            }
            do {
                self = .rsaPSS(try RSASSAPSSParameters(derEncoded: parameters).parameters)
            } catch {
                throw X509Error(.malformed, "RSASSA-PSS parameters: \(error.reason)")
            }
        } else {
            self = .unknown(identifier)
        }
    }

    static let ecdsaHashes: [ASN1ObjectIdentifier: HashAlgorithm] = [
        X509OIDs.ecdsaWithSHA256: .sha256, X509OIDs.ecdsaWithSHA384: .sha384, X509OIDs.ecdsaWithSHA512: .sha512,
    ]
    static let rsaHashes: [ASN1ObjectIdentifier: HashAlgorithm] = [
        X509OIDs.sha1WithRSAEncryption: .sha1, X509OIDs.sha256WithRSAEncryption: .sha256,
        X509OIDs.sha384WithRSAEncryption: .sha384, X509OIDs.sha512WithRSAEncryption: .sha512,
    ]

    /// The algorithm's name, for people.
    public var description: String {
        switch self {
        case .ecdsa(let hash): "ecdsa-with-\(hash.compactName)"
        case .rsaPKCS1v15(let hash): "\(hash.compactName.asciiLowercased)WithRSAEncryption"
        case .rsaPSS(let p): "rsassaPss(\(p.hash.rawValue), MGF1 \(p.maskGenerationHash.rawValue), salt \(p.saltLength))"
        case .unknown(let identifier): identifier.algorithm.dotted
        }
    }
}

private extension HashAlgorithm {
    /// The name without its hyphen, as algorithm names write it: "SHA256".
    var compactName: String { String(decoding: rawValue.utf8.filter { $0 != UInt8(ascii: "-") }, as: UTF8.self) }
}
