import SigilCBOR
import SigilCore
import SigilX509

/// WebAuthn authenticator data as App Attest writes it (W3C Web Authentication §6.1, §6.5.1), read
/// in one of two forms, because real devices write the two differently:
///
/// ```
/// attestation: rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian, unsigned)
///                ‖ attested credential data: aaguid (16) ‖ credentialIdLength (2, big-endian)
///                  ‖ credentialId ‖ credentialPublicKey (COSE_Key, CBOR)   -- when flag AT (0x40) is set
///                ‖ [extensions (one CBOR map)]
/// assertion:   rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian, unsigned)
///                ‖ [extensions (one CBOR map)]                             -- never credential data
/// ```
///
/// Every length is read unsigned and checked against what remains; nothing is left over.
///
/// - ``Form/attestation``: credential data is read when AT is set. Apple's newer attestations carry
///   an extensions map after it **even with the ED flag (0x80) clear** (Apple's 2026 sample has flags
///   0x40): bytes after the credential data are read as the extensions map whatever ED says.
/// - ``Form/assertion``: iOS sets AT in assertions too (every real assertion seen, iOS 14 to 26:
///   flags 0x40) and sends only the 37 bytes, so AT is **ignored** here and no credential data is
///   ever read; what follows the 37 bytes, when anything does, must be exactly one CBOR map (the
///   extensions newer systems write), and anything else is refused.
///
/// In both forms ED set with no map after the fixed part is refused.
public struct AuthenticatorData: Sendable, Hashable {
    /// Flag UP (user present).
    public static let userPresent: UInt8 = 0x01
    /// Flag AT (attested credential data included).
    public static let attestedCredentialDataIncluded: UInt8 = 0x40
    /// Flag ED (extension data included).
    public static let extensionDataIncluded: UInt8 = 0x80
    /// The most bytes accepted (the sample's is 226; extensions are small).
    public static let maximumSize = 16 << 10

    /// Which object the authenticator data came from: the two are laid out differently.
    public enum Form: String, Sendable, Hashable {
        /// An attestation's: the attested credential data follows when flag AT is set.
        case attestation
        /// An assertion's: the 37 fixed bytes and at most one extensions map; flag AT is ignored.
        case assertion
    }

    /// The form it was read in.
    public let form: Form

    /// The bytes as received (what the nonce and the assertion signature cover).
    public let bytes: [UInt8]
    /// SHA-256 of the App ID.
    public let rpIDHash: [UInt8]
    /// The flags byte.
    public let flags: UInt8
    /// The signature counter, read as an unsigned big-endian 32-bit integer.
    public let signCount: UInt32
    /// The attested credential data, when flag AT is set in an attestation's authenticator data
    /// (always nil in the ``Form/assertion`` form).
    public let attestedCredential: AttestedCredentialData?
    /// The extensions map, when present.
    public let extensions: AuthenticatorExtensions?

    /// Whether flag AT (attested credential data included) is set. In an assertion's authenticator
    /// data it is set by real devices with no credential data following, and is reported only.
    public var attestedCredentialDataFlag: Bool { flags & Self.attestedCredentialDataIncluded != 0 }

    /// Parses `bytes` in `form`; every refusal is `malformedAuthenticatorData` naming the field and
    /// offset.
    public init(_ bytes: [UInt8], form: Form) throws(AppAttestError) {
        func refuse(_ reason: String) -> AppAttestError { AppAttestError(.malformedAuthenticatorData, reason) }
        guard bytes.count <= Self.maximumSize else { throw refuse("\(bytes.count) bytes exceed the limit of \(Self.maximumSize)") }
        guard bytes.count >= 37 else { throw refuse("\(bytes.count) bytes: shorter than rpIdHash, flags and signCount (37)") }
        self.bytes = bytes
        self.form = form
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var position = 37
        if form == .attestation, flags & Self.attestedCredentialDataIncluded != 0 {
            guard bytes.count - position >= 18 else {
                throw refuse("the input ends inside the AAGUID or credentialIdLength (offset \(position))")
            }
            let aaguid = Array(bytes[position..<(position + 16)])
            let idLength = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard idLength <= bytes.count - position else {
                throw refuse(
                    "credentialIdLength \(idLength) exceeds the \(bytes.count - position) remaining bytes (offset \(position - 2))")
            }
            let credentialID = Array(bytes[position..<(position + idLength)])
            position += idLength
            let key: CBORValue
            do { (key, position) = try CBOR.decodePrefix(bytes, from: position, options: AuthenticatorData.cborOptions) } catch {
                throw refuse("credentialPublicKey: \(error)")
            }
            attestedCredential = AttestedCredentialData(
                aaguid: aaguid, credentialID: credentialID, publicKey: try AuthenticatorData.coseKey(key))
        } else {
            attestedCredential = nil
        }
        if position < bytes.count {
            let map: CBORValue
            guard bytes[position] >> 5 == 5 else {
                throw refuse(
                    "\(bytes.count - position) byte(s) after the \(form == .assertion ? "37-byte fixed part" : "credential data") "
                        + "(offset \(position)) do not begin a CBOR map (initial byte 0x\(String(bytes[position], radix: 16))): "
                        + "only one extensions map may follow")
            }
            do { (map, position) = try CBOR.decodePrefix(bytes, from: position, options: AuthenticatorData.cborOptions) } catch {
                throw refuse("extensions: \(error)")
            }
            guard position == bytes.count else {
                throw refuse("\(bytes.count - position) byte(s) after the extensions map (offset \(position))")
            }
            extensions = try AuthenticatorExtensions(map)
        } else {
            guard flags & Self.extensionDataIncluded == 0 else { throw refuse("flag ED is set but no extensions follow") }
            extensions = nil
        }
    }

    static let cborOptions = CBORDecodingOptions(maximumDepth: 8, maximumItems: 256, maximumInputBytes: maximumSize)

    /// The COSE_Key of an App Attest credential (RFC 9053 §7.1.1, RFC 8152): exactly
    /// `{1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x (32 bytes), -3: y (32 bytes)}`, a point on P-256.
    static func coseKey(_ value: CBORValue) throws(AppAttestError) -> ECDSAPublicKey {
        func refuse(_ reason: String) -> AppAttestError { AppAttestError(.malformedAuthenticatorData, "credentialPublicKey: \(reason)") }
        guard let entries = value.mapValue else { throw refuse("a \(value.kindName), not a COSE_Key map") }
        guard entries.count == 5 else { throw refuse("\(entries.count) parameters; an EC2 P-256 key has exactly kty, alg, crv, x and y") }
        guard value[.unsigned(1)] == .unsigned(2) else { throw refuse("kty (1) is not 2 (EC2)") }
        guard value[.unsigned(3)] == .integer(-7) else { throw refuse("alg (3) is not -7 (ES256)") }
        guard value[.integer(-1)] == .unsigned(1) else { throw refuse("crv (-1) is not 1 (P-256)") }
        guard let x = value[.integer(-2)]?.bytesValue, x.count == 32, let y = value[.integer(-3)]?.bytesValue, y.count == 32 else {
            throw refuse("x (-2) and y (-3) must be 32-byte byte strings")
        }
        do { return try ECDSAPublicKey(x: x, y: y, curve: .p256) } catch { throw refuse(error.reason) }
    }
}

/// The attested credential data of an attestation's authenticator data.
public struct AttestedCredentialData: Sendable, Hashable {
    /// The AAGUID: the App Attest environment ("appattestdevelop", or "appattest" + 7 zero bytes).
    public let aaguid: [UInt8]
    /// The credential id (for App Attest, the key identifier).
    public let credentialID: [UInt8]
    /// The credential public key (from its COSE_Key).
    public let publicKey: ECDSAPublicKey
}

/// The authenticator-data extensions Apple writes since iOS 27 / macOS 27, and any others, as
/// reported facts (nothing in them is enforced).
public struct AuthenticatorExtensions: Sendable, Hashable {
    /// Apple's `apple_validation_category_01` (4 bytes, little-endian) when present.
    public let validationCategory: ValidationCategory?
    /// Apple's `apple_bundle_version_01` when present.
    public let bundleVersion: String?
    /// The map as read, every entry in wire order (the known ones included).
    public let entries: [CBORMapEntry]

    init(_ value: CBORValue) throws(AppAttestError) {
        func refuse(_ reason: String) -> AppAttestError { AppAttestError(.malformedAuthenticatorData, "extensions: \(reason)") }
        guard let entries = value.mapValue else { throw refuse("a \(value.kindName), not a map") }
        self.entries = entries
        if let category = value["apple_validation_category_01"] {
            guard let bytes = category.bytesValue, bytes.count == 4 else {
                throw refuse("apple_validation_category_01 is not a 4-byte byte string")
            }
            validationCategory = ValidationCategory(rawValue: bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        } else {
            validationCategory = nil
        }
        if let version = value["apple_bundle_version_01"] {
            guard let text = version.textValue else { throw refuse("apple_bundle_version_01 is not a text string") }
            bundleVersion = text
        } else {
            bundleVersion = nil
        }
    }

    /// How the app was distributed, as Apple's `apple_validation_category_01` says (an open set).
    public struct ValidationCategory: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The little-endian value.
        public let rawValue: UInt32
        /// A category from its value.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// 1: a platform (system) app.
        public static let platform = ValidationCategory(rawValue: 1)
        /// 2: TestFlight.
        public static let testFlight = ValidationCategory(rawValue: 2)
        /// 3: development.
        public static let development = ValidationCategory(rawValue: 3)
        /// 4: the App Store.
        public static let appStore = ValidationCategory(rawValue: 4)
        /// 5: enterprise or ad hoc.
        public static let enterpriseOrAdHoc = ValidationCategory(rawValue: 5)
        /// 6: Developer ID.
        public static let developerID = ValidationCategory(rawValue: 6)
        /// 10: none.
        public static let none = ValidationCategory(rawValue: 10)

        /// The category's name ("App Store"), or its number.
        public var description: String {
            switch rawValue {
            case 1: "platform"
            case 2: "TestFlight"
            case 3: "development"
            case 4: "App Store"
            case 5: "enterprise/ad hoc"
            case 6: "Developer ID"
            case 10: "none"
            default: "category \(rawValue)"
            }
        }
    }
}
