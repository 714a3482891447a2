import SigilCBOR
import SigilCore

/// COSE_Key (RFC 9052 §7) for elliptic-curve keys of type EC2 (RFC 9053 §7.1.1) on P-256 and
/// P-384: read into an `ECDSAPublicKey` (SigilCore), or written from one.
public enum COSEKey {
    /// The public key a COSE_Key map holds: `kty` (1) EC2 (2), `crv` (-1) P-256 (1) or P-384 (2),
    /// `x` (-2) and `y` (-3) as byte strings of the curve's length (or `y` as the sign bit, the
    /// compressed form), the point checked to be on the curve.
    ///
    /// Throws ``COSEError/Code/invalidKey`` naming the first thing wrong: not a map, another key
    /// type (OKP, RSA, Symmetric by name), another curve, a coordinate of the wrong length or
    /// type, a point off the curve, or a private key `d` (-4) where a public key belongs.
    public static func publicKey(_ value: CBORValue) throws(COSEError) -> ECDSAPublicKey {
        guard case .map(let entries) = value else {
            throw COSEError(.invalidKey, "a COSE_Key is a map (RFC 9052 §7)")
        }
        func member(_ label: Int64) -> CBORValue? { entries.first { $0.key.int64Value == label }?.value }
        guard let keyType = member(1)?.int64Value else {
            throw COSEError(.invalidKey, "the COSE_Key has no integer kty (RFC 9052 §7.1)")
        }
        guard keyType == 2 else {
            let name = [1: "OKP", 3: "RSA", 4: "Symmetric"][keyType] ?? "unregistered"
            throw COSEError(.invalidKey, "the COSE_Key is of type \(name) (\(keyType)); only EC2 (2) is accepted (RFC 9053 §7.1)")
        }
        guard member(-4) == nil else {
            throw COSEError(.invalidKey, "the COSE_Key carries a private key (d, -4) where a public key belongs")
        }
        let curve: ECCurve
        switch member(-1)?.int64Value {
        case 1: curve = .p256
        case 2: curve = .p384
        case let other?:
            let name = [3: "P-521", 4: "X25519", 5: "X448", 6: "Ed25519", 7: "Ed448", 8: "secp256k1"][other] ?? "unregistered"
            throw COSEError(.invalidKey, "the COSE_Key is on \(name) (\(other)); only P-256 (1) and P-384 (2) are accepted")
        case nil:
            throw COSEError(.invalidKey, "the COSE_Key has no integer crv (RFC 9053 §7.1.1)")
        }
        guard case .bytes(let x) = member(-2), x.count == curve.byteCount else {
            throw COSEError(.invalidKey, "the COSE_Key x is not a \(curve.byteCount)-byte string (RFC 9053 §7.1.1)")
        }
        let encoded: [UInt8]
        switch member(-3) {
        case .bytes(let y) where y.count == curve.byteCount: encoded = [0x04] + x + y
        case .bool(let odd): encoded = [odd ? 0x03 : 0x02] + x
        default: throw COSEError(.invalidKey, "the COSE_Key y is neither a \(curve.byteCount)-byte string nor a sign bit (RFC 9053 §7.1.1)")
        }
        do {
            return try ECDSAPublicKey(sec1Representation: encoded, curve: curve)
        } catch {
            throw COSEError(wrapping: error, as: .invalidKey, context: "the COSE_Key's point")
        }
    }

    /// The COSE_Key map of `key`: kty EC2, crv, x and y (uncompressed), the labels in
    /// ascending order of their encodings (RFC 8949 §4.2.1's deterministic order).
    public static func encode(_ key: ECDSAPublicKey) -> CBORValue {
        .map(pairs: [
            (.unsigned(1), .unsigned(2)),
            (.negative(0), .unsigned(key.curve == .p256 ? 1 : 2)),
            (.negative(1), .bytes(key.x)),
            (.negative(2), .bytes(key.y)),
        ])
    }
}

extension COSEKey {
    /// The private key a COSE_Key map holds (RFC 9053 §7.1.1): EC2 on P-256 or P-384 with `d`
    /// (-4) of the curve's length; when `x` and `y` are present they must be `d`'s public point.
    ///
    /// Throws ``COSEError/Code/invalidKey`` for anything else; the reason never holds the key.
    public static func privateKey(_ value: CBORValue) throws(COSEError) -> ECDSAPrivateKey {
        guard case .map(let entries) = value else {
            throw COSEError(.invalidKey, "a COSE_Key is a map (RFC 9052 §7)")
        }
        guard let d = entries.first(where: { $0.key.int64Value == -4 })?.value.bytesValue else {
            throw COSEError(.invalidKey, "the COSE_Key has no private key d (-4) as a byte string (RFC 9053 §7.1.1)")
        }
        let curve: ECCurve
        switch entries.first(where: { $0.key.int64Value == -1 })?.value.int64Value {
        case 1: curve = .p256
        case 2: curve = .p384
        default: throw COSEError(.invalidKey, "the COSE_Key's crv is neither P-256 (1) nor P-384 (2)")
        }
        guard entries.first(where: { $0.key.int64Value == 1 })?.value.int64Value == 2 else {
            throw COSEError(.invalidKey, "the COSE_Key is not of type EC2 (2) (RFC 9053 §7.1)")
        }
        let key: ECDSAPrivateKey
        do { key = try ECDSAPrivateKey(rawRepresentation: d, curve: curve) } catch {
            throw COSEError(.invalidKey, "the COSE_Key's d is not a private key on \(curve.rawValue)")
        }
        let x = entries.first { $0.key.int64Value == -2 }?.value.bytesValue
        let y = entries.first { $0.key.int64Value == -3 }?.value.bytesValue
        if let x, x != key.publicKey.x {
            throw COSEError(.invalidKey, "the COSE_Key's x is not the public point of its d")
        }
        if let y, y != key.publicKey.y {
            throw COSEError(.invalidKey, "the COSE_Key's y is not the public point of its d")
        }
        return key
    }
}
