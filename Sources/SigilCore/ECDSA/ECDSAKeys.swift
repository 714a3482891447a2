import SigilBase

/// The NIST prime curves Sigil signs and verifies on.
public enum ECCurve: String, Sendable, CaseIterable, Hashable {
    /// NIST P-256 (secp256r1), the curve of ES256.
    case p256 = "P-256"
    /// NIST P-384 (secp384r1), the curve of ES384.
    case p384 = "P-384"

    /// Bytes in a field element or scalar: 32 or 48.
    public var byteCount: Int { self == .p256 ? 32 : 48 }

    /// The hash a JOSE/X.509 signature on this curve normally uses (ES256 / ES384).
    public var defaultHash: HashAlgorithm { self == .p256 ? .sha256 : .sha384 }
}

/// An ECDSA signature (r, s), each exactly `curve.byteCount` big-endian bytes.
///
/// The raw form r ‖ s is IEEE P1363 / JOSE (RFC 7518 §3.4). The DER `ECDSA-Sig-Value` form lives
/// in SigilKeys, above the ASN.1 layer.
public struct ECDSASignature: Sendable, Hashable {
    /// The curve the signature was made on.
    public let curve: ECCurve
    /// r, big-endian, `curve.byteCount` bytes.
    public let r: [UInt8]
    /// s, big-endian, `curve.byteCount` bytes.
    public let s: [UInt8]

    /// From r ‖ s of exactly 2 × `curve.byteCount` bytes.
    public init<Bytes: Collection>(rawRepresentation: Bytes, curve: ECCurve) throws(SigilCoreError)
    where Bytes.Element == UInt8 {
        let raw = Array(rawRepresentation)
        guard raw.count == 2 * curve.byteCount else {
            throw SigilCoreError(.invalidLength, "a raw \(curve.rawValue) signature is \(2 * curve.byteCount) bytes, not \(raw.count)")
        }
        self.curve = curve
        r = Array(raw.prefix(curve.byteCount))
        s = Array(raw.suffix(curve.byteCount))
    }

    /// From big-endian r and s of any length up to `curve.byteCount` after leading zeros (as DER
    /// INTEGERs carry them). Range checks against n happen at verification.
    public init(r: [UInt8], s: [UInt8], curve: ECCurve) throws(SigilCoreError) {
        func fixed(_ value: [UInt8], _ name: String) throws(SigilCoreError) -> [UInt8] {
            let trimmed = Array(value.drop { $0 == 0 })
            guard trimmed.count <= curve.byteCount else {
                throw SigilCoreError(.valueDoesNotFit, "\(name) has \(trimmed.count) significant bytes, more than \(curve.rawValue) allows")
            }
            return [UInt8](repeating: 0, count: curve.byteCount - trimmed.count) + trimmed
        }
        self.curve = curve
        self.r = try fixed(r, "r")
        self.s = try fixed(s, "s")
    }

    /// r ‖ s.
    public var rawRepresentation: [UInt8] { r + s }

    /// From r and s exactly as the signing engine returns them (`curve.byteCount` bytes each),
    /// kept without copying.
    fileprivate init(signed r: [UInt8], _ s: [UInt8], curve: ECCurve) {
        self.curve = curve
        self.r = r
        self.s = s
    }
}

/// An ECDSA public key: a validated point on P-256 or P-384 (never the point at infinity).
public struct ECDSAPublicKey: Sendable, Hashable {
    /// The key's curve.
    public let curve: ECCurve
    /// Affine coordinates, big-endian, `curve.byteCount` bytes each.
    public let x: [UInt8]
    /// The y coordinate, big-endian, `curve.byteCount` bytes.
    public let y: [UInt8]

    /// From affine coordinates; checks range and the curve equation (SEC 1 §3.2.2.1).
    public init(x: [UInt8], y: [UInt8], curve: ECCurve) throws(SigilCoreError) {
        let valid: Bool
        switch curve {
        case .p256: valid = ECDSAEngine<P256Curve>.publicPoint(x: x, y: y) != nil
        case .p384: valid = ECDSAEngine<P384Curve>.publicPoint(x: x, y: y) != nil
        }
        guard valid else {
            throw SigilCoreError(.invalidPoint, "the coordinates are not a point on \(curve.rawValue)")
        }
        self.init(validatedX: x, y: y, curve: curve)
    }

    private init(validatedX x: [UInt8], y: [UInt8], curve: ECCurve) {
        self.curve = curve
        self.x = x
        self.y = y
    }

    /// From the SEC 1 §2.3.3 octet string: 04 ‖ x ‖ y (uncompressed) or 02/03 ‖ x (compressed).
    /// The single octet 00 (the point at infinity) is refused: it is never a valid public key.
    public init<Bytes: Collection>(sec1Representation bytes: Bytes, curve: ECCurve) throws(SigilCoreError)
    where Bytes.Element == UInt8 {
        let data = Array(bytes)
        let width = curve.byteCount
        guard let form = data.first else {
            throw SigilCoreError(.invalidPoint, "empty point encoding")
        }
        switch form {
        case 0x04:
            guard data.count == 1 + 2 * width else {
                throw SigilCoreError(.invalidPoint, "an uncompressed \(curve.rawValue) point is \(1 + 2 * width) bytes, not \(data.count)")
            }
            try self.init(x: Array(data[1...width]), y: Array(data[(1 + width)...]), curve: curve)
        case 0x02, 0x03:
            guard data.count == 1 + width else {
                throw SigilCoreError(.invalidPoint, "a compressed \(curve.rawValue) point is \(1 + width) bytes, not \(data.count)")
            }
            let xBytes = Array(data[1...])
            let y: [UInt8]?
            switch curve {
            case .p256: y = ECDSAEngine<P256Curve>.decompress(x: xBytes, yIsOdd: form == 0x03)?.y.bigEndianBytes
            case .p384: y = ECDSAEngine<P384Curve>.decompress(x: xBytes, yIsOdd: form == 0x03)?.y.bigEndianBytes
            }
            guard let y else { throw SigilCoreError(.invalidPoint, "x is not the coordinate of a \(curve.rawValue) point") }
            self.init(validatedX: xBytes, y: y, curve: curve)
        case 0x00:
            throw SigilCoreError(.invalidPoint, "the point at infinity is not a valid public key")
        default:
            throw SigilCoreError(.invalidPoint, "unknown point form 0x\(String(form, radix: 16))")
        }
    }

    /// 04 ‖ x ‖ y.
    public var uncompressedRepresentation: [UInt8] { [0x04] + x + y }

    /// 02/03 ‖ x.
    public var compressedRepresentation: [UInt8] { [(y.last ?? 0) & 1 == 1 ? 0x03 : 0x02] + x }

    /// Whether `signature` is valid for a message digest (FIPS 186-5 §6.4.2). The digest may have
    /// any length: it is truncated to the order's bit length (SHA-512 with P-256 works), and a
    /// shorter one is used whole. **Variable time** — every input is public.
    public func isValidSignatureVartime(_ signature: ECDSASignature, digest: [UInt8]) -> Bool {
        digest.withUnsafeBytes { isValidSignatureVartime(signature, digestBuffer: $0) }
    }

    private func isValidSignatureVartime(_ signature: ECDSASignature, digestBuffer digest: UnsafeRawBufferPointer) -> Bool {
        guard signature.curve == curve else { return false }
        switch curve {
        case .p256:
            guard let q = ECDSAEngine<P256Curve>.publicPoint(x: x, y: y) else { return false }
            return ECDSAEngine<P256Curve>.verifyVartime(qx: q.x, qy: q.y, r: signature.r, s: signature.s, digest: digest)
        case .p384:
            guard let q = ECDSAEngine<P384Curve>.publicPoint(x: x, y: y) else { return false }
            return ECDSAEngine<P384Curve>.verifyVartime(qx: q.x, qy: q.y, r: signature.r, s: signature.s, digest: digest)
        }
    }

    /// Builds this key's fixed-base verification table now (rather than at its second
    /// verification) and keeps it in the process-wide bounded cache (`ECDSAVerificationTables`),
    /// for keys known to verify many signatures: pinned roots, a service's signing key. Later
    /// verifications with this key then take no point doublings. Public data only.
    public func prepareForRepeatedVerification() {
        switch curve {
        case .p256:
            if let q = ECDSAEngine<P256Curve>.publicPoint(x: x, y: y) {
                _ = P256Curve.keyTables.table(for: AffinePoint(x: q.x, y: q.y), force: true)
            }
        case .p384:
            if let q = ECDSAEngine<P384Curve>.publicPoint(x: x, y: y) {
                _ = P384Curve.keyTables.table(for: AffinePoint(x: q.x, y: q.y), force: true)
            }
        }
    }

    /// Hashes `message` with `hash`, then verifies. **Variable time** (public inputs).
    public func isValidSignatureVartime<Message: Sequence>(
        _ signature: ECDSASignature, for message: Message,
        hash: HashAlgorithm
    ) -> Bool where Message.Element == UInt8 {
        hash.withDigest(of: message) { isValidSignatureVartime(signature, digestBuffer: $0) }
    }
}

/// An ECDSA private key on P-256 or P-384.
///
/// The scalar lives in a private buffer that is overwritten with zeros when the last copy of the
/// key is released; it never appears in `description`, errors or debug output. All operations on
/// it are constant time.
public struct ECDSAPrivateKey: Sendable {
    /// The key's curve.
    public let curve: ECCurve
    /// The public key, derived from the scalar when the key was made.
    public let publicKey: ECDSAPublicKey
    private let secret: SecretBytes

    /// From the big-endian scalar d, exactly `curve.byteCount` bytes, 1 ≤ d ≤ n − 1.
    public init<Bytes: Collection>(rawRepresentation: Bytes, curve: ECCurve) throws(SigilCoreError)
    where Bytes.Element == UInt8 {
        let secret = SecretBytes.copying(rawRepresentation)
        guard secret.bytes.count == curve.byteCount else {
            throw SigilCoreError(.invalidLength, "a \(curve.rawValue) private key is \(curve.byteCount) bytes, not \(secret.bytes.count)")
        }
        let point: (x: [UInt8], y: [UInt8])?
        switch curve {
        case .p256: point = ECDSAPrivateKey.derivePublic(ECDSAEngine<P256Curve>.self, secret.bytes)
        case .p384:
            #if SIGIL_P256_SIGNING_ONLY
            // sigil.wasm (Scripts/build-wasm): its one signer is ES256 token minting, which refuses
            // other keys anyway, so P-384's constant-time generator multiplication is left out.
            throw SigilCoreError(.invalidKey, "this build signs with P-256 keys only, not P-384")
            #else
            point = ECDSAPrivateKey.derivePublic(ECDSAEngine<P384Curve>.self, secret.bytes)
            #endif
        }
        guard let point else {
            throw SigilCoreError(.invalidKey, "a \(curve.rawValue) private key must be in [1, n − 1]")
        }
        self.curve = curve
        self.secret = secret
        self.publicKey = try ECDSAPublicKey(x: point.x, y: point.y, curve: curve)
    }

    /// A fresh key from `generator` (rejection sampling in [1, n − 1]).
    public static func generate<R: RandomNumberGenerator>(curve: ECCurve, using generator: inout R) -> ECDSAPrivateKey {
        while true {
            var candidate = [UInt8](repeating: 0, count: curve.byteCount)
            for i in candidate.indices { candidate[i] = UInt8.random(in: 0...255, using: &generator) }
            defer { SecretMemory.wipe(&candidate) }  // the key keeps its own copy
            if let key = try? ECDSAPrivateKey(rawRepresentation: candidate, curve: curve) { return key }
        }
    }

    /// A fresh key from the system's secure random source.
    public static func generate(curve: ECCurve) -> ECDSAPrivateKey {
        var system = SystemRandomNumberGenerator()
        return generate(curve: curve, using: &system)
    }

    /// The scalar d as big-endian bytes. This exports the secret: each read is a fresh copy,
    /// which the caller owns and should wipe; the key's own storage is wiped when the key is
    /// released.
    public var rawRepresentation: [UInt8] { SecretMemory.ownedCopy(of: secret.bytes) }

    /// The address of the scalar's own storage (tests watch it being wiped when the key is released).
    package var secretStorageAddress: UInt { secret.storageAddress }

    /// Runs `body` over the scalar's own storage, without a copy (ECDH).
    func withSecretBytes<R, E: Error>(_ body: ([UInt8]) throws(E) -> R) throws(E) -> R { try body(secret.bytes) }

    /// Signs a digest (RFC 6979 deterministic nonce from `hash`, which should be the hash that
    /// produced the digest; hedged with `extraEntropy` when given, RFC 6979 §3.6). Constant time.
    public func signature(forDigest digest: [UInt8], hash: HashAlgorithm, extraEntropy: [UInt8] = []) -> ECDSASignature {
        digest.withUnsafeBytes { signature(digestBuffer: $0, hash: hash, extraEntropy: extraEntropy) }
    }

    /// Hashes `message` with `hash` and signs the digest. Constant time in the key.
    public func signature<Message: Sequence>(for message: Message, hash: HashAlgorithm, extraEntropy: [UInt8] = [])
        -> ECDSASignature where Message.Element == UInt8
    {
        hash.withDigest(of: message) { signature(digestBuffer: $0, hash: hash, extraEntropy: extraEntropy) }
    }

    /// The signing path with the digest in a buffer: allocates only r and s, which the signature
    /// keeps.
    private func signature(digestBuffer digest: UnsafeRawBufferPointer, hash: HashAlgorithm, extraEntropy: [UInt8]) -> ECDSASignature {
        let (r, s): ([UInt8], [UInt8])
        switch curve {
        case .p256: (r, s) = ECDSAPrivateKey.sign(ECDSAEngine<P256Curve>.self, secret.bytes, digest, hash, extraEntropy)
        case .p384:
            #if SIGIL_P256_SIGNING_ONLY
            // No P-384 private key is made in this build (init(rawRepresentation:curve:)).
            return ECDSASignature.unreachable(curve)
            #else
            (r, s) = ECDSAPrivateKey.sign(ECDSAEngine<P384Curve>.self, secret.bytes, digest, hash, extraEntropy)
            #endif
        }
        // The finished signature is public output: declassified for the audit before it is
        // handed out (JWS base64url-encodes it with a table, for example).
        ConstantTimeAudit.declassify(contentsOf: r)
        ConstantTimeAudit.declassify(contentsOf: s)
        // r and s come out of the engine at exactly byteCount bytes.
        guard r.count == curve.byteCount, s.count == curve.byteCount else { return ECDSASignature.unreachable(curve) }
        return ECDSASignature(signed: r, s, curve: curve)
    }

    private static func derivePublic<C>(_ engine: ECDSAEngine<C>.Type, _ d: [UInt8]) -> (x: [UInt8], y: [UInt8])? {
        let (scalar, inRange) = C.Scalar.fromBigEndian(d)
        guard (inRange & !scalar.isZero).isTrueVartime, let point = engine.publicPoint(privateKey: scalar) else { return nil }
        // The public key is public by design: declassified for the audit, so comparing it with a
        // key file's embedded public key (SEC 1 / PKCS#8 [1]) is not reported.
        let x = point.x.bigEndianBytes
        let y = point.y.bigEndianBytes
        ConstantTimeAudit.declassify(contentsOf: x)
        ConstantTimeAudit.declassify(contentsOf: y)
        return (x, y)
    }

    private static func sign<C>(
        _ engine: ECDSAEngine<C>.Type, _ d: [UInt8], _ digest: UnsafeRawBufferPointer, _ hash: HashAlgorithm,
        _ extra: [UInt8]
    ) -> ([UInt8], [UInt8]) {
        let (scalar, _) = C.Scalar.fromBigEndian(d)  // validated when the key was created
        return engine.sign(privateKey: scalar, privateKeyBytes: d, digest: digest, hash: hash, extraEntropy: extra)
    }
}

extension ECDSAPrivateKey: CustomStringConvertible {
    /// Never shows the secret.
    public var description: String { "ECDSAPrivateKey(\(curve.rawValue), redacted)" }
}

#if !hasFeature(Embedded)
extension ECDSAPrivateKey: CustomDebugStringConvertible, CustomReflectable {
    /// Never shows the secret.
    public var debugDescription: String { description }
    /// The curve and the public key only: `dump` and debuggers that walk a mirror never reach the
    /// scalar.
    public var customMirror: Mirror { Mirror(self, children: ["curve": curve, "publicKey": publicKey]) }
}
#endif

extension ECDSASignature {
    /// Placeholder that cannot be reached: the engine always returns byteCount-sized r and s.
    fileprivate static func unreachable(_ curve: ECCurve) -> ECDSASignature {
        // An all-zero signature never verifies (r = 0 is out of range), so even if reached it is inert.
        ECDSASignature(zeroFor: curve)
    }

    private init(zeroFor curve: ECCurve) {
        self.curve = curve
        r = [UInt8](repeating: 0, count: curve.byteCount)
        s = r
    }
}

/// Secret bytes in storage of their own, overwritten with zeros (`SecretMemory.wipe`) when
/// released.
///
/// The storage is a fresh copy (`SecretMemory.ownedCopy`), never the storage of the array the key
/// was made from; `bytes` is read only for the length of a call that keeps this object alive, so
/// at `deinit` the storage is unshared and wiped in place. What the caller passed in is the
/// caller's to wipe.
final class SecretBytes: @unchecked Sendable {
    private(set) var bytes: [UInt8]

    /// Takes the fresh copy made by ``copying(_:)`` (Embedded Swift allows no generic initializer
    /// in a class).
    private init(owned bytes: [UInt8]) { self.bytes = bytes }

    /// Secret bytes holding a fresh copy of `bytes`.
    static func copying<Bytes: Collection>(_ bytes: Bytes) -> SecretBytes where Bytes.Element == UInt8 {
        SecretBytes(owned: SecretMemory.ownedCopy(of: bytes))
    }

    /// The first byte's address, for tests that watch this storage being wiped.
    var storageAddress: UInt { bytes.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } }

    deinit {
        SecretMemory.wipe(&bytes)
    }
}
