import SigilASN1

/// What a receipt verifier expects of the app a receipt is for, and whether it enforces it. Not
/// enforcing is a named choice (``reportOnly``), never the effect of a nil or a default — the
/// design of SigilAppStore's `AppIdentityCheck`, with the same case names.
public enum ReceiptIdentityCheck: Sendable, Hashable {
    /// The receipt must name this bundle id (field 2), and the device hash is computed with it:
    /// a receipt another app got on the same device fails (``ReceiptError/Code/invalidAppIdentifier``).
    case enforce(bundleId: String)
    /// The bundle id is not checked: the verified receipt reports what it says
    /// (``VerifiedAppReceipt/identity``), and the device hash is computed with the receipt's own
    /// bundle id. The environment is still enforced. For tools that inspect receipts of any app
    /// (`sigil receipt verify` without `--bundle-id`) and for the `verifyReceipt` drop-in, which
    /// answers as Apple's endpoint (it checks no bundle id); a server that serves one app should
    /// ``enforce(bundleId:)``.
    case reportOnly

    /// The bundle id enforced, nil when report-only.
    public var bundleId: String? { if case .enforce(let id) = self { id } else { nil } }
    /// Whether the bundle id is enforced.
    public var isEnforced: Bool { bundleId != nil }
}

/// The environment a receipt was issued in, told by its receipt type (field 0). A verifier
/// accepts an explicit set of them (``AppReceiptVerifier/environments``), always enforced.
public enum ReceiptEnvironment: String, Sendable, Hashable, CaseIterable {
    /// The App Store: receipt types `Production` and `ProductionVPP`.
    case production = "Production"
    /// Apple's sandbox (development builds, TestFlight, App Review): `ProductionSandbox` and
    /// `ProductionVPPSandbox`.
    case sandbox = "Sandbox"
    /// Xcode's StoreKit testing: `Xcode`. Such receipts are signed by Xcode's own certificate,
    /// never by Apple (``AppReceiptVerifier/init(xcode:identity:minimumRSABits:)``).
    case xcode = "Xcode"

    /// The environment a receipt type names; nil for an absent or unknown type.
    public init?(receiptType: String?) {
        switch receiptType {
        case "Production", "ProductionVPP": self = .production
        case "ProductionSandbox", "ProductionVPPSandbox": self = .sandbox
        case "Xcode": self = .xcode
        default: return nil
        }
    }
}

/// What a verified receipt said about its app, and what of it was enforced.
public struct ReceiptIdentityReport: Sendable, Hashable {
    /// The bundle id the receipt carries (field 2).
    public let bundleId: String?
    /// The receipt's environment (from its receipt type), one of the verifier's — always enforced.
    public let environment: ReceiptEnvironment
    /// True when the bundle id was checked against the verifier's (and the device hash, when a
    /// device GUID was given, computed with it); false for a report-only verifier.
    public let enforced: Bool

    /// A report of what a receipt carried and whether it was enforced.
    public init(bundleId: String?, environment: ReceiptEnvironment, enforced: Bool) {
        self.bundleId = bundleId
        self.environment = environment
        self.enforced = enforced
    }
}
