import ArgumentParser
import Foundation
import SigilASN1
import SigilAppAttest
import SigilApplePKI
import SigilAppleRoots
import SigilBase
import SigilCore
import SigilKeys
import SigilPKCS7
import SigilReceipts
import SigilX509

/// `sigil appattest attestation|assertion|receipt`: one call into SigilAppAttest each; refusals
/// through the CLI's one error mapping (`appattest.<code>`, the step in the message).
struct AppAttestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appattest", abstract: "Verify App Attest attestations, assertions and fraud-metric receipts.",
        subcommands: [Attestation.self, Assertion.self, Receipt.self])

    /// The clientDataHash: SHA-256 of `--client-data`, or `--client-data-hash` as given (hex).
    struct ClientData: ParsableArguments {
        @Option(help: "The client data (UTF-8 text); its SHA-256 is the clientDataHash.") var clientData: String?
        @Option(help: "The clientDataHash as hex (the bytes the app passed; Apple's sample used the raw challenge).")
        var clientDataHash: String?

        func hash() throws -> [UInt8] {
            switch (clientData, clientDataHash) {
            case (let text?, nil): return SHA256.hash(Array(text.utf8))
            case (nil, let hex?):
                guard let bytes = Base16.decode(hex) else { throw CLIFailure(code: "usage", message: "--client-data-hash must be hex") }
                return bytes
            default: throw CLIFailure(code: "usage", message: "give exactly one of --client-data and --client-data-hash")
            }
        }
    }

    /// The App ID options.
    struct AppID: ParsableArguments {
        @Option(help: "The team identifier.") var teamId: String
        @Option(help: "The bundle identifier.") var bundleId: String

        var appID: AppAttestAppID { AppAttestAppID(teamID: teamId, bundleID: bundleId) }
    }

    /// The ``AppAttestPolicy`` options: without any, every category and bundle version is accepted
    /// and reported; restricting one needs `--when-absent` (what a device before iOS 27 gets).
    struct Policy: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "A validation category accepted (repeatable): app-store, testflight, development, enterprise, developer-id, platform, none, or its number.",
                valueName: "category"))
        var allowCategory: [String] = []
        @Option(help: ArgumentHelp("A bundle version (CFBundleVersion) accepted (repeatable).", valueName: "version"))
        var allowBundleVersion: [String] = []
        @Option(
            help:
                "With --allow-category or --allow-bundle-version: accept or refuse an object that states no extensions (devices before iOS 27)."
        )
        var whenAbsent: String?

        static let categoryNames: [String: AuthenticatorExtensions.ValidationCategory] = [
            "platform": .platform, "testflight": .testFlight, "development": .development, "app-store": .appStore,
            "enterprise": .enterpriseOrAdHoc, "developer-id": .developerID, "none": .none,
        ]

        func policy() throws -> AppAttestPolicy {
            var categories: Set<AuthenticatorExtensions.ValidationCategory> = []
            for name in allowCategory {
                if let category = Self.categoryNames[name.lowercased()] ?? UInt32(name).map(AuthenticatorExtensions.ValidationCategory.init)
                {
                    categories.insert(category)
                } else {
                    throw CLIFailure(code: "usage", message: "--allow-category \(name): not a category name or number")
                }
            }
            guard !categories.isEmpty || !allowBundleVersion.isEmpty else {
                guard whenAbsent == nil else {
                    throw CLIFailure(code: "usage", message: "--when-absent needs --allow-category or --allow-bundle-version")
                }
                return .acceptAllAndReport
            }
            guard let whenAbsent, let absent = AppAttestPolicy.WhenAbsent(rawValue: whenAbsent) else {
                throw CLIFailure(
                    code: "usage",
                    message:
                        "a restricted category or bundle version needs --when-absent accept|refuse (devices before iOS 27 state neither)")
            }
            return AppAttestPolicy(
                validationCategories: categories.isEmpty ? .any : .only(categories),
                bundleVersions: allowBundleVersion.isEmpty ? .any : .only(Set(allowBundleVersion)), whenAbsent: absent)
        }
    }

    /// The policy's verdict and the facts it judged, as JSON.
    static func json(_ report: AppAttestPolicyReport, _ policy: AppAttestPolicy) -> [String: Any] {
        [
            "validationCategory": report.validationCategory.map { Int($0.rawValue) } ?? NSNull(),
            "validationCategoryName": report.validationCategory?.description ?? NSNull(),
            "bundleVersion": report.bundleVersion ?? NSNull(), "enforced": report.enforced, "policy": policy.description,
        ]
    }

    /// The authenticator data's layout facts as JSON.
    static func json(_ authData: AuthenticatorData) -> [String: Any] {
        [
            "length": authData.bytes.count, "flags": "0x" + Output.hex([authData.flags]),
            "attestedCredentialDataFlag": authData.attestedCredentialDataFlag, "form": authData.form.rawValue,
            "extensions": authData.extensions.map { $0.entries.count } ?? NSNull(),
        ]
    }

    /// Runs `body` with a trace when `explain`, printing it (and the verdict) whether it passed or failed.
    static func traced<T>(_ explain: Bool, _ body: (VerificationTrace?) throws -> T) throws -> T {
        let trace = explain ? VerificationTrace() : nil
        do {
            let result = try body(trace)
            Output.printTrace(trace, verdict: "VALID")
            return result
        } catch {
            Output.printTrace(trace, verdict: CLIFailure(error).code)
            throw error
        }
    }

    /// A receipt time as signed (its fraction of a second kept), or null.
    static func date(_ time: RFC3339Timestamp?) -> Any { time?.text ?? NSNull() }

    /// A receipt's fields as JSON.
    static func json(_ receipt: AttestationReceipt) -> [String: Any] {
        [
            "appId": receipt.appID, "receiptType": receipt.receiptType, "environment": receipt.environment ?? NSNull(),
            "creationTime": date(receipt.creationTime), "riskMetric": receipt.riskMetric ?? NSNull(), "notBefore": date(receipt.notBefore),
            "expirationTime": date(receipt.expirationTime), "clientHash": receipt.clientHash.map(Output.hex) ?? NSNull(),
            "token": receipt.token ?? NSNull(), "attestedCertificate": receipt.attestedCertificate.subject.rfc4514String,
        ]
    }

    /// Receipt bytes: BER as given, or decoded from base64 text (as Apple's refresh endpoint returns it).
    static func receiptBytes(_ bytes: [UInt8]) throws -> [UInt8] {
        let compact = bytes.filter { ![0x0A, 0x0D, 0x20, 0x09].contains($0) }
        if compact.first == 0x30 || compact.isEmpty { return bytes }
        do { return try Base64.decode(compact, alphabet: .standard, padding: .optional) } catch {
            throw CLIFailure(code: "appattest.malformedReceipt", message: "the receipt is neither BER nor base64: \(error.reason)")
        }
    }

    struct Attestation: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify an attestation object (CBOR or base64): every step of Apple's validation; exit 0 valid, 1 refused.",
            discussion: """
                The root must be the Apple App Attestation Root CA (checked against its pinned SHA-256 fingerprint); \
                it is never taken from the object. Without --root it comes from the roots directory \
                (`sigil roots install Apple_App_Attestation_Root_CA.pem`). The receipt is summarized, not verified: verify it with \
                `sigil appattest receipt`.
                """)
        @OptionGroup var app: AppID
        @OptionGroup var client: ClientData
        @Option(help: "development or production (the AAGUID expected).") var environment: AppAttestEnvironment = .production
        @Option(help: "Validation time, RFC 3339 or unix seconds (default: now).") var at: String?
        @Option(help: "The Apple App Attestation Root CA (PEM or DER; default: the installed one, see `sigil roots`).") var root: String?
        @Option(help: "The key identifier the app sent (base64), compared with SHA-256 of the credential key.") var keyId: String?
        @OptionGroup var policy: Policy
        @Flag(help: "Print every verification step, with its clause, to stderr.") var explain = false
        @Argument(help: "Attestation object file (CBOR or base64), or - for standard input.") var file: String

        func run() {
            reportingErrors {
                let anchor: Certificate
                if let root {
                    guard let loaded = try Input.certificates(root).first else {
                        throw CLIFailure(code: "usage", message: "no certificate in \(root)")
                    }
                    anchor = loaded
                } else {
                    anchor = try RootsCommand.certificate(AppleRootCertificates.appAttest)
                }
                var expectedKeyID: [UInt8]?
                if let keyId {
                    do { expectedKeyID = try Base64.decode(Array(keyId.utf8), alphabet: .standard, padding: .optional) } catch {
                        throw CLIFailure(code: "usage", message: "--key-id must be base64")
                    }
                }
                let policy = try self.policy.policy()
                let verifier = try AttestationVerifier(
                    appAttestationRoot: anchor, appID: app.appID, environment: environment, policy: policy)
                let bytes = try Input.read(file)
                let clientDataHash = try client.hash()
                let time = try Input.time(at, option: "--at") ?? Int64(Date().timeIntervalSince1970)
                let verified = try AppAttestCommand.traced(explain) {
                    try verifier.verify(bytes, clientDataHash: clientDataHash, expectedKeyID: expectedKeyID, at: time, trace: $0)
                }
                var receipt: [String: Any] = ["bytes": verified.receipt.count, "verified": false]
                if let signed = try? CMSSignedData(berEncoded: verified.receipt), let payload = signed.payload,
                    let fields = try? SigilAppAttest.AttestationReceipt(payload: payload)
                {
                    receipt.merge(AppAttestCommand.json(fields)) { a, _ in a }
                }
                let extensions = verified.extensions
                Output.printJSON(
                    [
                        "keyId": Base64.encode(verified.keyID), "publicKey": Output.hex(verified.publicKey.uncompressedRepresentation),
                        "publicKeyPEM": PEMDocument(label: "PUBLIC KEY", derBytes: verified.publicKey.spkiDER).pemString,
                        "environment": verified.environment.rawValue, "counter": Int(verified.counter), "appId": app.appID.description,
                        "time": Time.rfc3339(time), "receipt": receipt,
                        "extensions": [
                            "validationCategory": extensions?.validationCategory.map { Int($0.rawValue) } ?? NSNull(),
                            "validationCategoryName": extensions?.validationCategory?.description ?? NSNull(),
                            "bundleVersion": extensions?.bundleVersion ?? NSNull(),
                        ] as [String: Any],
                        "policy": AppAttestCommand.json(verified.policyReport, policy),
                        "authenticatorData": AppAttestCommand.json(verified.authenticatorData),
                        "certificate": [
                            "appId": verified.certificateInfo.appID ?? NSNull(),
                            "osVersion": verified.certificateInfo.osVersion ?? NSNull(),
                            "chain": verified.chain.map(\.subject.rfc4514String),
                        ] as [String: Any],
                    ] as [String: Any])
            }
        }
    }

    struct Assertion: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Verify an assertion (CBOR or base64) with the stored public key; prints the new counter to store; exit 0 valid, 1 refused."
        )
        @Option(help: "The stored public key: a PEM/DER file, or the uncompressed point as hex.") var publicKey: String
        @OptionGroup var app: AppID
        @OptionGroup var client: ClientData
        @Option(help: "The stored counter (default 0).") var previousCounter: UInt32 = 0
        @OptionGroup var policy: Policy
        @Flag(help: "Print every verification step, with its clause, to stderr.") var explain = false
        @Argument(help: "Assertion file (CBOR or base64), or - for standard input.") var file: String

        func run() {
            reportingErrors {
                let key: ECDSAPublicKey
                if let point = Base16.decode(publicKey) {
                    key = try ECDSAPublicKey(sec1Representation: point, curve: .p256)
                } else {
                    key = try ECKey(loading: try Input.read(publicKey)).publicKey
                }
                let bytes = try Input.read(file)
                let clientDataHash = try client.hash()
                let policy = try self.policy.policy()
                let verified = try AppAttestCommand.traced(explain) {
                    try AssertionVerifier(appID: app.appID, policy: policy).verify(
                        bytes, clientDataHash: clientDataHash, publicKey: key, previousCounter: previousCounter, trace: $0)
                }
                Output.printJSON(
                    [
                        "counter": Int(verified.counter), "authenticatorData": AppAttestCommand.json(verified.authenticatorData),
                        "policy": AppAttestCommand.json(verified.policyReport, policy),
                    ] as [String: Any])
            }
        }
    }

    struct Receipt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify an App Attest fraud-metric receipt (BER or base64) to Apple Root CA - G3; exit 0 valid, 1 refused.",
            discussion:
                "The chain is validated at the receipt's creation time unless --at is given; the receipt must name the App ID --team-id and --bundle-id give."
        )
        @Option(help: "A trusted root instead of the built-in Apple Root CA - G3 (PEM or DER).") var root: String?
        @Option(help: "Validation time, RFC 3339 or unix seconds (default: the receipt's creation time).") var at: String?
        @OptionGroup var app: AppID
        @Flag(help: "Print every verification step, with its clause, to stderr.") var explain = false
        @Argument(help: "Receipt file (BER or base64), or - for standard input.") var file: String

        func run() {
            reportingErrors {
                let roots = try root.map { try Input.certificates($0) } ?? [try RootsCommand.certificate(AppleRootCertificates.signedData)]
                let bytes = try AppAttestCommand.receiptBytes(try Input.read(file))
                let time = try Input.time(at, option: "--at")
                let verified = try AppAttestCommand.traced(explain) {
                    try AttestationReceiptVerifier(trustedRoots: roots, appID: app.appID).verify(bytes, at: time, trace: $0)
                }
                var out = AppAttestCommand.json(verified.receipt)
                out["valid"] = true
                out["time"] = Time.rfc3339(verified.validationTime)
                out["chain"] = verified.chain.map(\.subject.rfc4514String)
                Output.printJSON(out)
            }
        }
    }
}

extension AppAttestEnvironment: ExpressibleByArgument {}
