import SigilCBOR
import SigilCOSE
import SigilCore
import SigilKeys

extension MdocVerifier.ReaderKey {
    /// The reader key from ProximityReader's `ephemeralReaderKey` (iOS 26.4 and later, on every
    /// raw-data request's `Response`), whose form Apple documents only as "the session's ephemeral
    /// reader key". Every form a key can take is read, and what it holds decides what can be
    /// checked:
    ///
    /// - a private key — a 32-byte P-256 scalar, CryptoKit's 97-byte x9.63 form (04 ‖ X ‖ Y ‖ d,
    ///   the point checked against d), PKCS#8 or SEC 1 DER or PEM, a COSE_Key with `d` (bare or as
    ///   EReaderKeyBytes, tag 24) — gives ``privateKey(_:)``: a deviceMac is checked;
    /// - a public key — 65-byte uncompressed or 33-byte compressed SEC 1, SubjectPublicKeyInfo DER
    ///   or PEM, a COSE_Key without `d` (bare or tag 24) — gives ``publicKeyOnly(_:)``: a
    ///   document authenticated by a deviceMac is then reported as unverifiable, never as
    ///   device-authenticated.
    ///
    /// Throws ``MdocError/Code/invalidReaderKey`` for anything else (empty, another length, a point
    /// off the curve, a scalar out of range). The reason never holds the key.
    public init(ephemeralReaderKey bytes: [UInt8]) throws(MdocError) {
        func fail(_ what: String) -> MdocError { MdocError(.invalidReaderKey, "the ephemeral reader key (\(bytes.count) bytes) \(what)") }
        guard let first = bytes.first else { throw fail("is empty") }
        switch (first, bytes.count) {
        case (_, 32):
            do { self = .privateKey(try ECDSAPrivateKey(rawRepresentation: bytes, curve: .p256)) } catch {
                throw fail("is not a P-256 private scalar")
            }
        case (0x04, 97):
            let key: ECDSAPrivateKey
            do { key = try ECDSAPrivateKey(rawRepresentation: bytes[65...], curve: .p256) } catch {
                throw fail("is not an x9.63 P-256 private key")
            }
            guard key.publicKey.uncompressedRepresentation == Array(bytes[0..<65]) else {
                throw fail("is an x9.63 private key whose point is not its scalar's")
            }
            self = .privateKey(key)
        case (0x04, 65), (0x02, 33), (0x03, 33):
            do { self = .publicKeyOnly(try ECDSAPublicKey(sec1Representation: bytes, curve: .p256)) } catch {
                throw fail("is not a point on P-256")
            }
        case (0x30, _), (UInt8(ascii: "-"), _):
            do {
                switch try ECKey(loading: bytes) {
                case .privateKey(let key): self = .privateKey(key)
                case .publicKey(let key): self = .publicKeyOnly(key)
                }
            } catch {
                throw fail("is neither a PKCS#8, SEC 1 nor SubjectPublicKeyInfo EC key")
            }
        default:
            var value: CBORValue
            do { value = try CBOR.decode(bytes, options: MdocCBOR.options) } catch { throw fail("is in no key form Sigil knows") }
            if case .tagged(24, .bytes(let inner)) = value {
                do { value = try CBOR.decode(inner, options: MdocCBOR.options) } catch { throw fail("is tag 24 around something not CBOR") }
            }
            guard case .map(let entries) = value else { throw fail("is CBOR but not a COSE_Key") }
            if entries.contains(where: { $0.key.int64Value == -4 }) {
                do { self = .privateKey(try COSEKey.privateKey(value)) } catch { throw fail("is a COSE_Key: \(error.reason)") }
            } else {
                do { self = .publicKeyOnly(try COSEKey.publicKey(value)) } catch { throw fail("is a COSE_Key: \(error.reason)") }
            }
        }
    }
}
