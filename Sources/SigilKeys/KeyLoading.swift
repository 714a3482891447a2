import SigilASN1
import SigilCore

/// Loading keys from whatever a user has: PEM (PKCS#8 "PRIVATE KEY", SEC 1 "EC PRIVATE KEY",
/// SubjectPublicKeyInfo "PUBLIC KEY") or DER of any of those, private or public.
public enum ECKey: Sendable {
    case privateKey(ECDSAPrivateKey)
    case publicKey(ECDSAPublicKey)

    /// The public half (a private key's derived public key).
    public var publicKey: ECDSAPublicKey {
        switch self {
        case .privateKey(let key): key.publicKey
        case .publicKey(let key): key
        }
    }

    /// Reads PEM text or DER bytes. In PEM, "EC PARAMETERS" blocks (which `openssl ecparam -genkey`
    /// writes before the key) are skipped; exactly one key block must remain. DER is tried as
    /// PKCS#8, then SEC 1, then SubjectPublicKeyInfo.
    public init<Bytes: Collection>(loading bytes: Bytes) throws(SigilKeysError) where Bytes.Element == UInt8 {
        let data = Array(bytes)
        if let text = String(validating: data, as: UTF8.self), text.contains("-----BEGIN ") {
            let blocks: [PEMDocument]
            do {
                blocks = try PEMDocument.parseAll(text).filter { $0.label != "EC PARAMETERS" }
            } catch {
                throw keysError(error, context: "PEM")
            }
            guard blocks.count == 1, let block = blocks.first else {
                throw SigilKeysError(.malformed, "expected one key in the PEM text, found \(blocks.count)")
            }
            switch block.label {
            case "PRIVATE KEY": self = .privateKey(try ECDSAPrivateKey(pkcs8DER: block.derBytes))
            case "EC PRIVATE KEY": self = .privateKey(try ECDSAPrivateKey(sec1DER: block.derBytes))
            case "PUBLIC KEY": self = .publicKey(try ECDSAPublicKey(spkiDER: block.derBytes))
            default: throw SigilKeysError(.unexpectedLabel, "PEM label \"\(block.label)\" is not an EC key")
            }
            return
        }
        if let key = try? ECDSAPrivateKey(pkcs8DER: data) { self = .privateKey(key); return }
        if let key = try? ECDSAPrivateKey(sec1DER: data) { self = .privateKey(key); return }
        do {
            self = .publicKey(try ECDSAPublicKey(spkiDER: data))
        } catch {
            throw SigilKeysError(.malformed, "not a PKCS#8, SEC 1 or SubjectPublicKeyInfo EC key (\(error.reason))")
        }
    }
}
