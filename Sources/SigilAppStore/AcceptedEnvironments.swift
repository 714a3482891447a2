/// The environments a ``SignedDataVerifier`` accepts signed data from, and with them how far the
/// data is checked (``trust``).
///
/// The environment is part of what Apple signs, so one verifier can safely accept **Production and
/// Sandbox together** (``productionAndSandbox``): both are checked in full — chain to your
/// trusted root, Apple's marker extensions, the ES256 signature — and the verified result says
/// which environment the payload was from (``VerifiedSignedData/environment``). That is the setup
/// App Review needs: it buys in the sandbox against the production build, so a production server
/// that accepts only Production data refuses App Review's purchases.
///
/// The two test environments are weaker and are never mixed with Production or Sandbox (a set
/// mixing them is refused with ``AppStoreError/Code/invalidConfiguration``):
/// - ``xcode``: StoreKit Testing in Xcode, whose signature is checked against the self-signed
///   certificate the data carries, with nothing tying it to Apple;
/// - ``localTestingUnsigned``: nothing verified at all — Apple's libraries' behaviour for the
///   LocalTesting environment, available only under this name.
public struct AcceptedEnvironments: Sendable, Hashable, CustomStringConvertible {
    /// The environments accepted.
    public let environments: Set<AppStoreEnvironment>
    /// How far data accepted from them is checked: Apple's chain (Production, Sandbox and any
    /// other environment Apple names), Xcode's self-signed certificate, or nothing (LocalTesting).
    public let trust: SignedDataTrust

    private init(unchecked environments: Set<AppStoreEnvironment>, trust: SignedDataTrust) {
        self.environments = environments
        self.trust = trust
    }

    /// Production only, Apple's chain checked in full.
    public static let production = AcceptedEnvironments(unchecked: [.production], trust: .appleChain)
    /// Sandbox only, Apple's chain checked in full.
    public static let sandbox = AcceptedEnvironments(unchecked: [.sandbox], trust: .appleChain)
    /// Production and Sandbox in one deployment (the App Review setup), Apple's chain checked in
    /// full for both; the result says which one a payload was from. Production needs the app's
    /// Apple id, so the verifier needs it too.
    public static let productionAndSandbox = AcceptedEnvironments(unchecked: [.production, .sandbox], trust: .appleChain)
    /// StoreKit Testing in Xcode: the signature is checked against the self-signed certificate in
    /// `x5c`; nothing ties the data to Apple.
    public static let xcode = AcceptedEnvironments(unchecked: [.xcode], trust: .xcodeSelfSigned)
    /// **Insecure**: LocalTesting data decoded with no signature, certificate or chain checked —
    /// anyone can make data this verifier accepts. Apple's App Store Server Libraries behave so for
    /// the LocalTesting environment; Sigil does only under this name. The payload's environment
    /// (and bundle id) are still compared. For tests against a local StoreKit test server, never a
    /// deployment that grants anything.
    public static let localTestingUnsigned = AcceptedEnvironments(unchecked: [.localTesting], trust: .unverified)

    /// The set `environments`, checked: not empty; Xcode only alone (``xcode``); LocalTesting
    /// never — it is accepted only by name (``localTestingUnsigned``), because nothing is verified.
    /// Any other environments (Production, Sandbox, ones Apple may add) are checked in full and
    /// may be combined.
    public init(_ environments: Set<AppStoreEnvironment>) throws(AppStoreError) {
        if environments.isEmpty { throw AppStoreError(.invalidConfiguration, "no environment is accepted: name at least one") }
        if environments.contains(.localTesting) {
            throw AppStoreError(
                .invalidConfiguration,
                "LocalTesting data is unsigned and nothing of it can be verified: accept it by name with "
                    + "AcceptedEnvironments.localTestingUnsigned, alone" + (environments.count > 1 ? ", never with other environments" : "")
            )
        }
        if environments.contains(.xcode) {
            guard environments.count == 1 else {
                throw AppStoreError(
                    .invalidConfiguration,
                    "Xcode's data is checked only against its own self-signed certificate: it is never accepted together with "
                        + Self.names(environments.subtracting([.xcode])) + ", whose chain to Apple is checked")
            }
            self = .xcode
            return
        }
        self.init(unchecked: environments, trust: .appleChain)
    }

    /// Exactly one environment (``localTestingUnsigned`` still by name only).
    public init(_ environment: AppStoreEnvironment) throws(AppStoreError) { try self.init([environment]) }

    /// Whether `environment` is accepted.
    public func contains(_ environment: AppStoreEnvironment) -> Bool { environments.contains(environment) }

    /// The environments in a stable order (by name).
    public var sorted: [AppStoreEnvironment] { environments.map { $0.rawValue }.sorted().map { AppStoreEnvironment(rawValue: $0) } }

    /// The environments by name, for messages: "Production", "Production or Sandbox".
    public var description: String { Self.names(environments) }

    static func names(_ environments: Set<AppStoreEnvironment>) -> String {
        let names = environments.map { $0.rawValue }.sorted()
        return names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
