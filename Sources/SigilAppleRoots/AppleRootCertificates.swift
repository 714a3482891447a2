import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCore
import SigilX509

/// An error of SigilAppleRoots: a stable code and a reason that says what to do next.
public struct AppleRootError: ModuleError {
    /// "roots": `roots.code` names this module's errors across Sigil.
    public static let domain = "roots"
    /// A stable error code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The root is neither built in nor installed in the roots directory.
        public static var missingRoot: Code { Code("missingRoot") }
        /// A file's SHA-256 is not the fingerprint pinned for the root it should be.
        public static var fingerprintMismatch: Code { Code("fingerprintMismatch") }
        /// A file is not one of the Apple roots Sigil knows (its fingerprint matches none).
        public static var unknownRoot: Code { Code("unknownRoot") }
        /// A file could not be read or written, or is not a certificate.
        public static var unreadable: Code { Code("unreadable") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, and what to do next.
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}

/// One of Apple's root certificates: its name and file name as Apple's certificate authority page
/// (https://www.apple.com/certificateauthority/) gives them, the job Sigil trusts it for, and the
/// SHA-256 fingerprint Apple publishes, which pins it. A root is trusted only with exactly these
/// bytes, whether they are built in or read from the roots directory.
public struct AppleRootCertificate: Sendable, Hashable, CustomStringConvertible {
    /// Apple's name for the certificate ("Apple Root CA - G3").
    public let name: String
    /// The file Apple's certificate authority page offers ("AppleRootCA-G3.cer").
    public let fileName: String
    /// What Sigil trusts it for.
    public let job: String
    /// The SHA-256 of the certificate's DER, as Apple publishes it.
    public let sha256Fingerprint: [UInt8]
    /// The certificate's DER when Sigil carries it (a package registry has it: see
    /// Vectors/apple-roots/PROVENANCE.md); nil for a root that must be installed.
    let builtInDER: [UInt8]?

    /// Whether Sigil carries the certificate's bytes (no installation needed).
    public var isBuiltIn: Bool { builtInDER != nil }

    /// The fingerprint as colon-separated uppercase hex, as Apple prints it.
    public var fingerprintText: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        for (i, byte) in sha256Fingerprint.enumerated() {
            if i > 0 { text.append(UInt8(ascii: ":")) }
            text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `name (fileName)`.
    public var description: String { "\(name) (\(fileName))" }

    /// Apple Root CA - G3 (P-384, 2014–2039): the anchor of App Store signed data — transactions,
    /// renewal info, notifications, app transactions — and of App Attest fraud-metric receipts.
    /// Built in.
    public static let appleRootCAG3 = AppleRootCertificate(
        name: "Apple Root CA - G3", fileName: "AppleRootCA-G3.cer", job: "App Store signed data (JWS x5c chains)",
        sha256Fingerprint: AppleRootFingerprints.appleRootCAG3,
        builtInDER: AppleRootCertificateData.appleRootCAG3)

    /// Apple Inc. Root Certificate (RSA-2048, 2006–2035): the anchor of app receipts (PKCS #7).
    /// Installed with `sigil roots install AppleIncRootCertificate.cer`.
    public static let appleIncRoot = AppleRootCertificate(
        name: "Apple Inc. Root Certificate", fileName: "AppleIncRootCertificate.cer", job: "app receipts (PKCS #7)",
        sha256Fingerprint: AppleRootFingerprints.appleIncRoot,
        builtInDER: nil)

    /// Apple App Attestation Root CA (P-384, 2020–2045): the anchor of App Attest attestations.
    /// Installed with `sigil roots install Apple_App_Attestation_Root_CA.pem`.
    public static let appAttestationRoot = AppleRootCertificate(
        name: "Apple App Attestation Root CA", fileName: "Apple_App_Attestation_Root_CA.pem", job: "App Attest attestations",
        sha256Fingerprint: AppleRootFingerprints.appAttestationRoot,
        builtInDER: nil)
}

/// Apple's roots Sigil knows, where they are found, and how one is installed.
///
/// A verification takes its root from here when the caller names none: built in when Sigil
/// carries the bytes (``certificate(_:)``), else from the bytes the caller supplies
/// (``certificate(_:bytes:)``) or, in the regular build, from the roots directory
/// (`directory(environment:)`), which `install(_:named:into:)` fills after checking the file
/// against the pinned fingerprint. Whatever the source, only bytes with the pinned fingerprint
/// are trusted. Nothing is fetched from the network.
public enum AppleRootCertificates {
    /// Every root Sigil knows, in the order `sigil roots` lists them.
    public static let all: [AppleRootCertificate] = [.appleRootCAG3, .appleIncRoot, .appAttestationRoot]

    /// The root of App Store signed data (Apple Root CA - G3).
    public static let signedData = AppleRootCertificate.appleRootCAG3
    /// The root of app receipts (Apple Inc. Root Certificate).
    public static let receipts = AppleRootCertificate.appleIncRoot
    /// The root of App Attest attestations (Apple App Attestation Root CA).
    public static let appAttest = AppleRootCertificate.appAttestationRoot

    /// Where Apple offers its root certificates.
    public static let downloadPage = "https://www.apple.com/certificateauthority/"

    /// The root whose fingerprint is the SHA-256 of `der`, if any.
    public static func identify(_ der: [UInt8]) -> AppleRootCertificate? {
        let digest = SHA256.hash(der)
        return all.first { $0.sha256Fingerprint == digest }
    }

    /// `root` as a certificate from the built-in bytes, checked against the pinned fingerprint. A
    /// root Sigil does not carry is `missingRoot`: its bytes are the caller's to supply
    /// (``certificate(_:bytes:)``).
    public static func certificate(_ root: AppleRootCertificate) throws(AppleRootError) -> Certificate {
        guard let builtIn = root.builtInDER else {
            throw AppleRootError(
                .missingRoot,
                "\(root.name) (trusted for \(root.job)) is not built in: download \(root.fileName) from \(downloadPage) "
                    + "and supply its bytes")
        }
        return try pinned(root, der: builtIn, origin: "the built-in copy")
    }

    /// `root` as a certificate from `bytes` the caller supplies — DER, or PEM with one
    /// certificate — which must have the pinned fingerprint (`fingerprintMismatch` otherwise): how a
    /// program without a file system, or with its own store, hands Apple's roots to a verifier.
    public static func certificate(_ root: AppleRootCertificate, bytes: [UInt8]) throws(AppleRootError) -> Certificate {
        try pinned(root, der: derBytes(bytes, named: "the bytes given"), origin: "the bytes given")
    }

    /// `der` as `root`'s certificate once its SHA-256 is the pinned fingerprint; `origin` names
    /// where the bytes came from in the errors.
    static func pinned(_ root: AppleRootCertificate, der: [UInt8], origin: String) throws(AppleRootError) -> Certificate {
        guard SHA256.hash(der) == root.sha256Fingerprint else {
            throw AppleRootError(
                .fingerprintMismatch, "\(origin) is not \(root.name): its SHA-256 is not the pinned \(root.fingerprintText)")
        }
        do { return try Certificate(derEncoded: der) } catch {
            throw AppleRootError(.unreadable, "\(origin): \(error)")
        }
    }

    /// DER from DER or a PEM "CERTIFICATE" block.
    static func derBytes(_ bytes: [UInt8], named source: String) throws(AppleRootError) -> [UInt8] {
        guard bytes.first != 0x30 else { return bytes }
        guard let text = String(validating: bytes, as: UTF8.self), isPEM(bytes) else {
            throw AppleRootError(.unreadable, "\(source) is neither DER nor a PEM certificate")
        }
        let blocks: [PEMDocument]
        do { blocks = try PEMDocument.parseAll(text) } catch {
            throw AppleRootError(.unreadable, "\(source): \(error)")
        }
        guard blocks.count == 1 else {
            throw AppleRootError(.unreadable, "\(source) must hold exactly one PEM certificate, found \(blocks.count) blocks")
        }
        guard blocks[0].label == "CERTIFICATE" else {
            throw AppleRootError(.unreadable, "\(source) holds a \"\(blocks[0].label)\" PEM block, not a CERTIFICATE")
        }
        return blocks[0].derBytes
    }

    /// Whether `bytes` hold a PEM certificate's opening boundary line.
    static func isPEM(_ bytes: [UInt8]) -> Bool {
        let boundary = Array("-----BEGIN CERTIFICATE-----".utf8)
        guard bytes.count >= boundary.count else { return false }
        return (0...(bytes.count - boundary.count)).contains { bytes[$0..<($0 + boundary.count)].elementsEqual(boundary) }
    }
}
