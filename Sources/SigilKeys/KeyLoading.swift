import SigilASN1
import SigilBase
import SigilCore

/// Loading keys from whatever a user has: PEM (PKCS#8 "PRIVATE KEY", SEC 1 "EC PRIVATE KEY",
/// SubjectPublicKeyInfo "PUBLIC KEY") or DER of any of those, private or public.
public enum ECKey: Sendable {
    /// A private key (PKCS#8 or SEC 1).
    case privateKey(ECDSAPrivateKey)
    /// A public key (SubjectPublicKeyInfo).
    case publicKey(ECDSAPublicKey)

    /// The public half (a private key's derived public key).
    public var publicKey: ECDSAPublicKey {
        switch self {
        case .privateKey(let key): key.publicKey
        case .publicKey(let key): key
        }
    }

    /// Reads PEM text or DER bytes. In PEM, "EC PARAMETERS" blocks (which `openssl ecparam -genkey`
    /// writes before the key) are skipped; exactly one key block must remain. DER is parsed once
    /// and read as PKCS#8, then SEC 1, then SubjectPublicKeyInfo.
    public init<Bytes: Collection>(loading bytes: Bytes) throws(SigilKeysError) where Bytes.Element == UInt8 {
        let data = Array(bytes)
        // DER starts with a SEQUENCE tag (0x30); anything else is read as PEM, through the
        // constant-time decoder, since the base64 body of a private key is the secret itself.
        // (Only the first byte is looked at here: it is public structure either way.)
        if let first = data.first, first != 0x30 {
            // The decoded DER of each block is the secret key itself: read in place from the
            // decoder's one array of blocks (no second array shares their storage) and wiped there.
            var blocks = try SecretPEM.decode(data)
            defer { for i in blocks.indices { SecretMemory.wipe(&blocks[i].der) } }
            var keyBlock = -1
            var found = 0
            for i in blocks.indices where blocks[i].label != "EC PARAMETERS" {
                found += 1
                keyBlock = i
            }
            guard found == 1 else { throw SigilKeysError(.malformed, "expected one key in the PEM text, found \(found)") }
            switch blocks[keyBlock].label {
            case "PRIVATE KEY": self = .privateKey(try ECDSAPrivateKey(pkcs8DER: blocks[keyBlock].der))
            case "EC PRIVATE KEY": self = .privateKey(try ECDSAPrivateKey(sec1DER: blocks[keyBlock].der))
            case "PUBLIC KEY": self = .publicKey(try ECDSAPublicKey(spkiDER: blocks[keyBlock].der))
            default: throw SigilKeysError(.unexpectedLabel, "PEM label \"\(blocks[keyBlock].label)\" is not an EC key")
            }
            return
        }
        // DER is parsed once; the three formats are then tried on the same node.
        let node: ASN1Node
        do {
            node = try DER.parse(data)
        } catch {
            let reason = SigilKeysError(wrapping: error, as: .malformed, context: "SubjectPublicKeyInfo").reason
            throw SigilKeysError(.malformed, "not a PKCS#8, SEC 1 or SubjectPublicKeyInfo EC key (\(reason))")
        }
        if let key = try? ECDSAPrivateKey(pkcs8Node: node) {
            self = .privateKey(key)
            return
        }
        if let key = try? ECDSAPrivateKey(sec1Node: node) {
            self = .privateKey(key)
            return
        }
        let spki: SubjectPublicKeyInfo
        do {
            spki = try SubjectPublicKeyInfo(node: node)
        } catch {
            let reason = SigilKeysError(wrapping: error, as: .malformed, context: "SubjectPublicKeyInfo").reason
            throw SigilKeysError(.malformed, "not a PKCS#8, SEC 1 or SubjectPublicKeyInfo EC key (\(reason))")
        }
        do {
            self = .publicKey(try ECDSAPublicKey(spki: spki))
        } catch {
            throw SigilKeysError(.malformed, "not a PKCS#8, SEC 1 or SubjectPublicKeyInfo EC key (\(error.reason))")
        }
    }
}
