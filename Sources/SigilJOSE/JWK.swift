import SigilASN1
import SigilBase
import SigilCore
import SigilKeys

/// A public JSON Web Key (RFC 7517 §4, RFC 7518 §6): EC (P-256, P-384) or RSA.
///
/// A key is bound to one JWS algorithm: EC keys by curve; RSA keys by their `alg` member, or by
/// the default the caller names when the member is absent. `use` other than "sig" and key_ops
/// without "verify" make the key unusable for verification. Private members (d, p, q, …) are
/// refused: a public key set that carries private keys is a publisher's mistake worth stopping.
public struct JWK: Sendable, Hashable {
    /// kty: "EC" or "RSA".
    public let keyType: String
    /// kid, when present.
    public let keyID: String?
    /// alg, when present.
    public let algorithm: String?
    /// use, when present ("sig" for signing keys).
    public let use: String?
    /// The key as parsed, every member kept.
    public let json: JSONValue

    /// A key from a parsed JWK object: kty required, private members refused, use and key_ops kept for `verificationKey`.
    public init(json: JSONValue) throws(JOSEError) {
        guard case .object = json else { throw JOSEError(.invalidKey, "a JWK is a JSON object") }
        guard let kty = json["kty"]?.stringValue else { throw JOSEError(.invalidKey, "the JWK has no string kty") }
        for member in ["kid", "alg", "use"] {
            if let value = json[member], value.stringValue == nil { throw JOSEError(.invalidKey, "JWK \(member) is not a string") }
        }
        for secret in ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] where json[secret] != nil {
            throw JOSEError(.invalidKey, "the JWK carries private member \"\(secret)\"")
        }
        keyType = kty
        keyID = json["kid"]?.stringValue
        algorithm = json["alg"]?.stringValue
        use = json["use"]?.stringValue
        self.json = json
    }

    /// A key from JWK JSON bytes (strict parser).
    public init(parsing bytes: [UInt8]) throws(JOSEError) {
        try self.init(json: try JSONValue(parsing: bytes))
    }

    /// A JWK for an EC public key (members in RFC 7638 order: crv, kty, x, y; then kid, alg, use).
    public init(ecdsa key: ECDSAPublicKey, keyID: String? = nil) {
        var members: [(String, JSONValue)] = [
            ("crv", .string(key.curve == .p256 ? "P-256" : "P-384")), ("kty", .string("EC")),
            ("x", .string(Base64URL.encode(key.x))), ("y", .string(Base64URL.encode(key.y))),
        ]
        if let keyID { members.append(("kid", .string(keyID))) }
        members.append(("alg", .string(key.curve == .p256 ? "ES256" : "ES384")))
        members.append(("use", .string("sig")))
        self.init(built: .object(members), keyType: "EC", keyID: keyID, algorithm: key.curve == .p256 ? "ES256" : "ES384")
    }

    /// A JWK for an RSA public key bound to `algorithm` (RS256 or PS256).
    public init(rsa key: RSAPublicKey, algorithm: JWSAlgorithm, keyID: String? = nil) {
        var members: [(String, JSONValue)] = [
            ("e", .string(key.jwkExponent)), ("kty", .string("RSA")), ("n", .string(key.jwkModulus)),
        ]
        if let keyID { members.append(("kid", .string(keyID))) }
        members.append(("alg", .string(algorithm.rawValue)))
        members.append(("use", .string("sig")))
        self.init(built: .object(members), keyType: "RSA", keyID: keyID, algorithm: algorithm.rawValue)
    }

    /// A key Sigil built itself from a public key (nothing to check, nothing to unwrap).
    private init(built json: JSONValue, keyType: String, keyID: String?, algorithm: String) {
        self.keyType = keyType
        self.keyID = keyID
        self.algorithm = algorithm
        use = "sig"
        self.json = json
    }

    /// The verification key, bound to its algorithm. `defaultRSAAlgorithm` applies only to an RSA
    /// key without alg.
    public func verificationKey(
        defaultRSAAlgorithm: JWSAlgorithm = .rs256,
        minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits
    ) throws(JOSEError) -> JWSVerificationKey {
        if let use, use != "sig" { throw JOSEError(.invalidKey, "the JWK's use is \"\(use)\", not sig") }
        if let ops = json["key_ops"] {
            guard let list = ops.arrayValue, list.contains(.string("verify")) else {
                throw JOSEError(.invalidKey, "the JWK's key_ops do not include verify")
            }
        }
        func member(_ name: String) throws(JOSEError) -> [UInt8] {
            guard let text = json[name]?.stringValue else { throw JOSEError(.invalidKey, "the \(keyType) JWK has no string \(name)") }
            do { return try Base64URL.decode(text) } catch { throw JOSEError(.invalidKey, "JWK \(name): \(error.reason)") }
        }
        switch keyType {
        case "EC":
            let curve: ECCurve
            switch json["crv"]?.stringValue {
            case "P-256": curve = .p256
            case "P-384": curve = .p384
            case let other: throw JOSEError(.invalidKey, "unsupported EC curve \(other ?? "(none)")")
            }
            let expected = curve == .p256 ? JWSAlgorithm.es256 : .es384
            if let algorithm, algorithm != expected.rawValue {
                throw JOSEError(.invalidKey, "a \(curve.rawValue) key cannot be used with alg \(algorithm)")
            }
            let x = try member("x")
            let y = try member("y")
            // RFC 7518 §6.2.1.2: x and y are exactly the coordinate length.
            guard x.count == curve.byteCount, y.count == curve.byteCount else {
                throw JOSEError(.invalidKey, "EC x and y must be \(curve.byteCount) bytes each, found \(x.count) and \(y.count)")
            }
            do { return .ecdsa(try ECDSAPublicKey(x: x, y: y, curve: curve)) } catch {
                throw JOSEError(wrapping: error, as: .invalidKey, context: "EC key")
            }
        case "RSA":
            let bound: JWSAlgorithm
            switch algorithm {
            case nil: bound = defaultRSAAlgorithm
            case "RS256"?: bound = .rs256
            case "PS256"?: bound = .ps256
            case let other?: throw JOSEError(.invalidKey, "unsupported RSA alg \(other)")
            }
            guard bound == .rs256 || bound == .ps256 else {
                throw JOSEError(.invalidKey, "an RSA key cannot be bound to \(bound.rawValue)")
            }
            guard let n = json["n"]?.stringValue, let e = json["e"]?.stringValue else {
                throw JOSEError(.invalidKey, "the RSA JWK needs string n and e")
            }
            do {
                return .rsa(try RSAPublicKey(jwkModulus: n, exponent: e, minimumModulusBits: minimumRSABits), bound)
            } catch {
                throw JOSEError(wrapping: error, as: .invalidKey, context: "RSA key")
            }
        default:
            throw JOSEError(.invalidKey, "unsupported kty \(keyType)")
        }
    }
}

/// A JWK Set (RFC 7517 §5): keys found by kid. Keys of unknown types are kept (RFC 7517 §5:
/// implementations should ignore keys they do not understand) but never used.
public struct JWKS: Sendable {
    /// The keys, in the set's order.
    public let keys: [JWK]
    /// The most keys a parsed set may hold.
    public static let maximumKeys = 256

    /// A key set from keys already built.
    public init(keys: [JWK]) { self.keys = keys }

    /// A key set from JWKS JSON bytes: a `keys` array of at most `maximumKeys` JWKs.
    public init(parsing bytes: [UInt8]) throws(JOSEError) {
        let json = try JSONValue(parsing: bytes)
        guard let list = json["keys"]?.arrayValue else { throw JOSEError(.invalidKey, "a JWK Set has a keys array") }
        guard list.count <= JWKS.maximumKeys else { throw JOSEError(.invalidKey, "a JWK Set of \(list.count) keys is too large") }
        var keys: [JWK] = []
        for item in list { keys.append(try JWK(json: item)) }
        self.keys = keys
    }

    /// The key with `kid`, or nil.
    public func key(id: String) -> JWK? { keys.first { $0.keyID == id } }

    /// Verifies `jws` with the key its header's kid names. Errors: unknownKeyID when the token has
    /// no kid or no key matches; algorithmMismatch when its alg is not the key's.
    public func verify(_ jws: JWS, defaultRSAAlgorithm: JWSAlgorithm = .rs256) throws(JOSEError) -> JWK {
        guard let kid = jws.keyID else { throw JOSEError(.unknownKeyID, "the token has no kid") }
        guard let jwk = key(id: kid) else { throw JOSEError(.unknownKeyID, "no key with kid \"\(kid)\" in the key set") }
        try jws.verify(with: try jwk.verificationKey(defaultRSAAlgorithm: defaultRSAAlgorithm))
        return jwk
    }
}
