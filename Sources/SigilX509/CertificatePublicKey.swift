import SigilASN1
import SigilCore
import SigilKeys

/// The subject public key of a certificate, decoded when Sigil can verify with it and kept as
/// the SubjectPublicKeyInfo otherwise (an unknown key algorithm is not a parse error; it only
/// makes signatures by that key unverifiable).
public enum CertificatePublicKey: Hashable, Sendable, CustomStringConvertible {
    /// A P-256 or P-384 key.
    case ec(ECDSAPublicKey)
    /// An RSA key, with its PSS restriction when it has one.
    case rsa(RSAPublicKeyInfo)
    /// A key Sigil cannot verify with, kept as received.
    case unknown(SubjectPublicKeyInfo)

    /// RSA keys are read down to 1024 bits (PKITS and old roots use 1024); whether a key that size
    /// may verify anything is the chain policy's decision (2048 bits by default). Smaller RSA keys
    /// are kept as `.unknown`.
    init(spki: SubjectPublicKeyInfo) throws(X509Error) {
        switch spki.algorithm.algorithm {
        case KeyOIDs.ecPublicKey:
            do {
                self = .ec(try ECDSAPublicKey(spki: spki))
            } catch  where error.code == .unsupportedAlgorithm {
                self = .unknown(spki)  // another curve: kept, not verifiable here
            } catch {
                throw X509Error(.malformed, "EC subject public key: \(error.reason)")
            }
        case KeyOIDs.rsaEncryption, KeyOIDs.rsassaPSS:
            do {
                self = .rsa(try RSAPublicKeyInfo(spki: spki, minimumModulusBits: RSAPublicKey.smallestAllowedModulusBits))
            } catch  where error.code == .invalidKey && RSAPublicKeyInfo.isBelowSmallestAllowedSize(spki) {
                self = .unknown(spki)  // below 1024 bits: kept, never usable
            } catch {
                throw X509Error(.malformed, "RSA subject public key: \(error.reason)")
            }
        default:
            self = .unknown(spki)
        }
    }

    /// For display: "EC P-256", "RSA 2048", or the algorithm OID.
    public var description: String {
        switch self {
        case .ec(let key): "EC \(key.curve == .p256 ? "P-256" : "P-384")"
        case .rsa(let info): "RSA \(info.key.modulusBits)\(info.isPSSOnly ? " (PSS)" : "")"
        case .unknown(let spki): spki.algorithm.algorithm.dotted
        }
    }
}
