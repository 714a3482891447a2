import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCore
import SigilX509

/// The App ID App Attest binds a key to: "TEAMID.bundle.id", whose SHA-256 is the RP ID hash of
/// every attestation and assertion.
public struct AppAttestAppID: Sendable, Hashable, CustomStringConvertible {
    /// The team identifier ("1234567890").
    public let teamID: String
    /// The bundle identifier ("com.example.myapp").
    public let bundleID: String

    /// The App ID of `bundleID` under `teamID`.
    public init(teamID: String, bundleID: String) {
        self.teamID = teamID
        self.bundleID = bundleID
    }

    /// "TEAMID.bundle.id".
    public var description: String { teamID + "." + bundleID }

    /// SHA-256 of "TEAMID.bundle.id" (Apple's step 6; assertion step 4).
    public var rpIDHash: [UInt8] { SHA256.hash(Array(description.utf8)) }

    /// Apple's RP ID check (attestation step 6, assertion step 4), recorded in `trace`.
    func checkRPIDHash(of authData: AuthenticatorData, step: String, trace: VerificationTrace?) throws(AppAttestError) {
        let clause = "Apple App Attest, \(step)"
        let check = "RP ID hash equals SHA-256(\(self))"
        guard authData.rpIDHash == rpIDHash else {
            throw AppAttestError(.rpIDMismatch, "\(step): the RP ID hash \(Base16.encode(authData.rpIDHash)) is not SHA-256(\"\(self)\")")
                .recorded(in: trace, clause, check)
        }
        trace?.pass(clause, check, Base16.encode(authData.rpIDHash))
    }
}

/// The App Attest environment a key was made in, told by the AAGUID of its attestation (step 8).
public enum AppAttestEnvironment: String, Sendable, Hashable, CaseIterable {
    /// Apps signed for development: AAGUID "appattestdevelop".
    case development
    /// Apps from the App Store, TestFlight and enterprise distribution: AAGUID "appattest" followed by seven 0x00 bytes.
    case production

    /// The 16-byte AAGUID of this environment.
    public var aaguid: [UInt8] {
        switch self {
        case .development: Array("appattestdevelop".utf8)
        case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        }
    }

    /// The environment whose AAGUID is `aaguid`, if any.
    public init?(aaguid: [UInt8]) {
        guard let match = Self.allCases.first(where: { $0.aaguid == aaguid }) else { return nil }
        self = match
    }
}

/// The SHA-256 fingerprint of the Apple App Attestation Root CA (P-384, 2020-03-18 → 2045-03-15),
/// as Apple publishes it: the root a caller passes is checked against it, and a root is never
/// taken from the attestation itself.
public enum AppAttestRoot {
    /// 1C:B9:82:3B:A2:8B:A6:AD:2D:33:A0:06:94:1D:E2:AE:4F:51:3E:F1:D4:E8:31:B9:F7:E0:FA:7B:62:42:C9:32
    /// (written down once, in `AppleRootFingerprints.appAttestationRoot`).
    public static let sha256Fingerprint: [UInt8] = AppleRootFingerprints.appAttestationRoot
}
