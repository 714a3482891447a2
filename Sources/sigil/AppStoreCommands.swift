import ArgumentParser
import Foundation
import SigilAppStore
import SigilApplePKI
import SigilAppleRoots
import SigilCore
import SigilHTTP
import SigilJOSE
import SigilOCSP
import SigilTokens
import SigilX509

/// Options every token command shares.
struct SigningKeyOptions: ParsableArguments {
    @Option(help: "The .p8 private key file (PKCS#8 PEM from App Store Connect).") var key: String
    @Option(help: "The key's identifier (kid).") var keyId: String
    @Option(help: "Issued-at time, unix seconds or RFC 3339 (default: now).") var issuedAt: String?
    @Flag(help: "Print {token, header, claims} JSON instead of the bare token.") var json = false

    func signingKey() throws -> AppleSigningKey {
        do { return try AppleSigningKey(p8: try Input.read(key), keyID: keyId) } catch let e as AppStoreError {
            throw CLIFailure(e)
        }
    }

    func now() throws -> Int64 {
        guard let issuedAt else { return Int64(Date().timeIntervalSince1970) }
        guard let t = X509Command.parseTime(issuedAt) else {
            throw CLIFailure(code: "usage", message: "--issued-at must be RFC 3339 or unix seconds")
        }
        return t
    }

    func emit(_ token: String) throws {
        guard json else {
            print(token)
            return
        }
        let jws = try JWS(compact: token)
        Output.printJSON(["token": token, "header": JSONCLI.any(jws.header), "claims": JSONCLI.any(try jws.payloadJSON())])
    }
}

enum JSONCLI {
    /// A JSONValue as Foundation objects for Output.json (numbers keep their value).
    static func any(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let n):
            if let integer = Int64(n) { return integer }
            return Double(n) ?? 0
        case .string(let s): return s
        case .array(let a): return a.map(any)
        case .object(let o): return Dictionary(o.map { ($0.0, any($0.1)) }, uniquingKeysWith: { a, _ in a })
        }
    }

    static func any(bytes: [UInt8]) -> Any {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) ?? String(decoding: bytes, as: UTF8.self)
    }
}

struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint Apple's ES256 tokens and signatures from a .p8 key.",
        subcommands: [AppStore.self, ExternalPurchase.self, SignInWithApple.self, Reader.self, DeviceCheck.self, PromotionalOffer.self])

    struct AppStore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "app-store", abstract: "App Store Server API bearer token (exp ≤ 60 min).")
        @OptionGroup var signing: SigningKeyOptions
        @Option(help: "Issuer id from App Store Connect.") var issuerId: String
        @Option(help: "The app's bundle id.") var bundleId: String
        @Option(help: "Lifetime in seconds (≤ 3600).") var ttl: Int64 = 300
        func run() {
            reportingErrors {
                do {
                    try signing.emit(
                        try AppleTokens.appStoreServerAPI(
                            key: try signing.signingKey(), issuerID: issuerId, bundleID: bundleId,
                            issuedAt: try signing.now(), lifetime: ttl))
                } catch let e as AppStoreError { throw CLIFailure(e) }
            }
        }
    }

    struct ExternalPurchase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "external-purchase", abstract: "External Purchase Server API bearer token (exp ≤ 60 min).")
        @OptionGroup var signing: SigningKeyOptions
        @Option(help: "Issuer id from App Store Connect.") var issuerId: String
        @Option(help: "The app's bundle id.") var bundleId: String
        @Option(help: "Lifetime in seconds (≤ 3600).") var ttl: Int64 = 300
        func run() {
            reportingErrors {
                do {
                    try signing.emit(
                        try AppleTokens.externalPurchaseServerAPI(
                            key: try signing.signingKey(), issuerID: issuerId, bundleID: bundleId,
                            issuedAt: try signing.now(), lifetime: ttl))
                } catch let e as AppStoreError { throw CLIFailure(e) }
            }
        }
    }

    struct SignInWithApple: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign-in-with-apple", abstract: "Sign in with Apple client_secret (exp ≤ 15777000 s).")
        @OptionGroup var signing: SigningKeyOptions
        @Option(help: "Team id.") var teamId: String
        @Option(help: "Client id (Services ID or bundle id).") var clientId: String
        @Option(help: "Lifetime in seconds (≤ 15777000).") var ttl: Int64 = 3600
        func run() {
            reportingErrors {
                do {
                    try signing.emit(
                        try AppleTokens.signInWithAppleClientSecret(
                            key: try signing.signingKey(), teamID: teamId, clientID: clientId,
                            issuedAt: try signing.now(), lifetime: ttl))
                } catch let e as AppStoreError { throw CLIFailure(e) }
            }
        }
    }

    struct Reader: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reader", abstract: "ProximityReader Verifier API reader token (exp ≤ 5 min).")
        @OptionGroup var signing: SigningKeyOptions
        @Option(help: "Brand id (iss).") var brandId: String
        @Option(help: "Reader instance identifier (sub).") var readerId: String
        @Option(help: "Lifetime in seconds (≤ 300).") var ttl: Int64 = 300
        func run() {
            reportingErrors {
                do {
                    try signing.emit(
                        try AppleTokens.proximityReaderToken(
                            key: try signing.signingKey(), brandID: brandId, readerID: readerId,
                            issuedAt: try signing.now(), lifetime: ttl))
                } catch let e as AppStoreError { throw CLIFailure(e) }
            }
        }
    }

    struct DeviceCheck: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devicecheck",
            abstract: "DeviceCheck API (and App Attest receipt refresh) bearer token: iss team id, iat; mint one per request.")
        @OptionGroup var signing: SigningKeyOptions
        @Option(help: "Team id (iss).") var teamId: String
        func run() {
            reportingErrors {
                do {
                    try signing.emit(
                        try AppleTokens.deviceCheck(key: try signing.signingKey(), teamID: teamId, issuedAt: try signing.now()))
                } catch let e as AppStoreError { throw CLIFailure(e) }
            }
        }
    }

    struct PromotionalOffer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "promotional-offer",
            abstract: "Promotional offer signature: v1 (StoreKit 1, base64 DER ECDSA) or v2 (StoreKit 2 JWS).")
        @OptionGroup var signing: SigningKeyOptions
        @Option(help: "1 or 2.") var version: Int = 2
        @Option(help: "The app's bundle id.") var bundleId: String
        @Option(help: "Product id.") var productId: String
        @Option(help: "Offer identifier.") var offerId: String
        @Option(help: "v2: issuer id.") var issuerId: String?
        @Option(help: "v2: transaction id (optional).") var transactionId: String?
        @Option(help: "v1: app account token (default empty).") var appAccountToken: String = ""
        @Option(help: "Nonce (default: a fresh UUID).") var nonce: String?
        @Option(help: "v1: timestamp in ms (default: issued-at × 1000).") var timestamp: Int64?
        func run() {
            reportingErrors {
                let key = try signing.signingKey()
                let now = try signing.now()
                let nonce = self.nonce ?? UUID().uuidString.lowercased()
                switch version {
                case 1:
                    let ts = timestamp ?? now * 1000
                    let signature = AppleTokens.promotionalOfferV1(
                        key: key, bundleID: bundleId, productID: productId, offerID: offerId,
                        appAccountToken: appAccountToken, nonce: nonce, timestamp: ts)
                    Output.printJSON([
                        "signature": signature, "keyIdentifier": key.keyID, "nonce": nonce, "timestamp": ts,
                        "productIdentifier": productId, "offerIdentifier": offerId,
                    ])
                case 2:
                    guard let issuerId else { throw CLIFailure(code: "usage", message: "v2 needs --issuer-id") }
                    do {
                        try signing.emit(
                            try AppleTokens.promotionalOfferV2(
                                key: key, issuerID: issuerId, bundleID: bundleId, productID: productId,
                                offerIdentifier: offerId, transactionID: transactionId, nonce: nonce, issuedAt: now))
                    } catch let e as AppStoreError { throw CLIFailure(e) }
                default:
                    throw CLIFailure(code: "usage", message: "--version is 1 or 2")
                }
            }
        }
    }
}

struct JWSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "jws", abstract: "Inspect JWS compact tokens.", subcommands: [Decode.self])

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print header and payload WITHOUT verifying anything.")
        @Argument(help: "File holding the token, or - for standard input.") var file: String
        func run() {
            reportingErrors {
                let text = String(decoding: try Input.read(file), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                do {
                    let jws = try JWS(compact: text)
                    var out: [String: Any] = [
                        "verified": false,
                        "warning": "decoded only: no signature, certificate or claim was checked",
                        "header": JSONCLI.any(jws.header), "payload": JSONCLI.any(bytes: jws.payload),
                        "signatureBytes": jws.signature.count,
                    ]
                    if let x5c = try? jws.x5c() {
                        out["x5c"] = x5c.map { der -> Any in
                            guard let c = try? Certificate(derEncoded: der) else { return "(not a certificate)" }
                            return [
                                "subject": c.subject.rfc4514String, "issuer": c.issuer.rfc4514String,
                                "notBefore": X509Command.rfc3339(c.validity.notBefore),
                                "notAfter": X509Command.rfc3339(c.validity.notAfter),
                            ]
                        }
                    }
                    Output.printJSON(out)
                } catch let e as JOSEError {
                    throw CLIFailure(code: "jose." + e.code.rawValue, message: e.description)
                }
            }
        }
    }
}

struct ExternalPurchaseTokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "external-purchase-token", abstract: "Decode external purchase tokens.",
        subcommands: [Decode.self])
    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decode a token (base64url JSON) into its fields.")
        @Flag(help: "Refuse `=` padding and a trailing newline (accepted by default, as Apple's examples carry them).") var strict = false
        @Argument(help: "The token, or - to read it from standard input.") var token: String
        func run() {
            reportingErrors {
                let text = token == "-" ? String(decoding: try Input.read("-"), as: UTF8.self) : token
                do {
                    let t = try ExternalPurchaseToken(
                        token: strict ? text : text.trimmingCharacters(in: .whitespaces),
                        allowPaddingAndNewline: !strict)
                    var out: [String: Any] = [
                        "appAppleId": t.appAppleId, "bundleId": t.bundleId, "externalPurchaseId": t.externalPurchaseId,
                        "tokenCreationDate": t.tokenCreationDate.millisecondsSince1970,
                        "tokenCreationTime": t.tokenCreationDate.description,
                        "environment": t.environment.rawValue, "customLinkToken": t.isCustomLinkToken,
                    ]
                    if let type = t.tokenType { out["tokenType"] = type.rawValue }
                    if let expiry = t.tokenExpirationDate {
                        out["tokenExpirationDate"] = expiry.millisecondsSince1970
                        out["tokenExpirationTime"] = expiry.description
                    }
                    Output.printJSON(out)
                } catch let e as AppStoreError { throw CLIFailure(e) }
            }
        }
    }
}

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify App Store signed data (JWS + x5c chain to Apple's root) and print the decoded payload.",
        discussion: """
            The chain must end at Apple Root CA - G3, which Sigil carries (--root trusts other roots instead). \
            On success the decoded payload is printed as JSON on stdout (exit 0), with the root that anchored the chain; \
            a notification's nested transaction, renewal info and app transaction are verified the same way and printed \
            decoded (--raw-nested keeps them as JWS strings). Without --bundle-id the bundle id is reported, not enforced; \
            without --environment a Production or Sandbox payload is accepted and the output says which it was. On failure \
            the status (Apple's names: INVALID_JWT_FORMAT, VERIFICATION_FAILURE, …) and the reason go to stderr as JSON \
            (exit 1). --explain prints each step with the spec clause it implements to stderr. \
            Xcode's StoreKit-testing data is signed by Xcode's own certificate, alone in x5c and never Apple's: \
            --xcode-certificate FILE requires x5c[0] to be that certificate (`sigil receipt verify --xcode-certificate` \
            does the same for Xcode's receipts); --environment Xcode alone trusts the certificate the data carries.
            """)
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case transaction
        case renewalInfo = "renewal-info"
        case notification
        case appTransaction = "app-transaction"
        case realtime, auto

        /// The library's kind; nil for auto (the verifier classifies, or refuses to guess).
        var kind: SignedDataKind? {
            switch self {
            case .transaction: .transaction
            case .renewalInfo: .renewalInfo
            case .notification: .notification
            case .appTransaction: .appTransaction
            case .realtime: .realtimeRequest
            case .auto: nil
            }
        }
    }
    @Option(
        name: .customLong("root"),
        help: "A trusted root certificate instead of the built-in Apple Root CA - G3 (repeatable; DER or PEM).")
    var roots: [String] = []
    @Option(help: "transaction | renewal-info | notification | app-transaction | realtime | auto") var type: Kind = .auto
    @Option(help: "Expected bundle id, enforced (without it the bundle id is reported and not checked, and the output says so).")
    var bundleId: String?
    @Option(help: "Expected app Apple id (required with --environment Production).") var appAppleId: Int64?
    @Option(
        help:
            "Sandbox, Production, Xcode or LocalTesting (with --insecure-accept-unsigned), enforced (default: Production or Sandbox accepted, the chain always validated)."
    )
    var environment: String?
    @Flag(help: "With --environment LocalTesting: accept LocalTesting data, which is unsigned: nothing is verified.")
    var insecureAcceptUnsigned = false
    @Flag(help: "Print a notification's nested signed data as the JWS strings it carries, not verified and decoded.")
    var rawNested = false
    @Flag(help: "Check leaf and intermediate with OCSP (network) as of now; the chain is validated at the payload's signedDate.")
    var online = false
    @Option(help: "Validation time, unix seconds or RFC 3339 (default: the payload's signedDate; revocation is checked now).")
    var at: String?
    @Flag(help: "Print every verification step to stderr.") var explain = false
    @Option(
        help:
            "The device's AppStore.deviceVerificationID (UUID): check that a client-side transaction, renewal info or app transaction was issued to it (deviceVerification)."
    )
    var deviceVerificationId: String?
    @Option(
        name: .customLong("relax"),
        help: RelaxationName.help(
            "the chain", note: "Apple's App Store Server Library test root needs missing-key-identifiers and noncritical-basic-constraints")
    )
    var relaxations: [RelaxationName] = []
    @Option(
        help:
            "Xcode StoreKit testing: the certificate Xcode signs with (DER or PEM); x5c[0] must be it. Implies --environment Xcode (the certificate x5c carries is trusted with --environment Xcode alone)."
    )
    var xcodeCertificate: String?
    @Argument(help: "File holding the JWS (or a notification body {\"signedPayload\": …}), or - for standard input.") var file: String

    mutating func run() async throws {
        do {
            try await verify()
        } catch let failure as CLIFailure {
            failure.report()
        } catch {
            CLIFailure(error).report()
        }
    }

    func verify() async throws {
        let raw = String(decoding: try Input.read(file), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        var text = raw
        if raw.hasPrefix("{") {
            // A notification request body, {"signedPayload": "…"} (the strict parser, as for every JSON Sigil reads).
            guard let body = try? JSONValue(parsing: Array(raw.utf8)), let signed = body["signedPayload"]?.stringValue else {
                throw CLIFailure(code: "usage", message: "a JSON input must be a notification body {\"signedPayload\": \"…\"}")
            }
            text = signed
        }
        var trusted: [Certificate] = []
        for root in roots { trusted += try X509Command.load(root) }
        let builtIn = trusted.isEmpty
        if builtIn { trusted = [try RootsCommand.certificate(AppleRootCertificates.signedData)] }
        var time: Int64?
        if let at {
            guard let parsed = X509Command.parseTime(at) else {
                throw CLIFailure(code: "usage", message: "--at must be RFC 3339 or unix seconds")
            }
            time = parsed
        }
        // Without --bundle-id nothing is taken from the payload to check it against itself: the
        // verifier is report-only by name, and the output says the bundle id was not enforced.
        let identity: AppIdentityCheck
        if let bundleId {
            identity = .enforce(bundleId: bundleId, appAppleId: appAppleId)
        } else {
            guard appAppleId == nil else { throw CLIFailure(code: "usage", message: "--app-apple-id needs --bundle-id") }
            identity = .reportOnly
        }
        // --xcode-certificate: Xcode's certificate, given; the Xcode environment only.
        var xcode: Certificate?
        if let xcodeCertificate {
            guard environment == nil || environment == AppStoreEnvironment.xcode.rawValue, roots.isEmpty, relaxations.isEmpty, !online
            else {
                throw CLIFailure(
                    code: "usage",
                    message:
                        "--xcode-certificate is the only trust for Xcode data: --environment, --root, --relax and --online do not apply")
            }
            guard let certificate = try X509Command.load(xcodeCertificate).first else {
                throw CLIFailure(code: "usage", message: "--xcode-certificate \(xcodeCertificate) holds no certificate")
            }
            xcode = certificate
        }
        let revocation: (any RevocationChecker)? = online ? OCSPRevocationChecker(transport: URLSessionOCSPTransport()) : nil
        // Without --environment: Production and Sandbox, both with the full chain (never Xcode or
        // LocalTesting, whose checks are weaker), in one verifier that says which it found.
        // Production needs the app Apple id when the identity is enforced, so it is accepted only with one.
        let enforcedWithoutAppId = bundleId != nil && appAppleId == nil
        let trace = explain ? VerificationTrace() : nil
        do {
            let environments: AcceptedEnvironments
            if xcode != nil {
                environments = .xcode
            } else if let environment {
                let named = AppStoreEnvironment(rawValue: environment)
                if named == .localTesting {
                    guard insecureAcceptUnsigned else {
                        throw CLIFailure(
                            code: "usage",
                            message:
                                "LocalTesting data is unsigned and nothing of it is verified: pass --insecure-accept-unsigned to accept it")
                    }
                    environments = .localTestingUnsigned
                } else {
                    environments = try AcceptedEnvironments(named)
                }
            } else {
                environments = enforcedWithoutAppId ? .sandbox : .productionAndSandbox
            }
            let verifier: SignedDataVerifier
            if let xcode {
                verifier = try SignedDataVerifier(xcode: .given(xcode), identity: identity)
            } else {
                verifier = try SignedDataVerifier(
                    trustedRoots: trusted, identity: identity, environments: environments, revocation: revocation,
                    rfc5280Relaxations: Set(relaxations.map(\.relaxation)))
            }
            let verified = try await verifier.verify(text, kind: type.kind, at: time, trace: trace)
            var record = Self.record(verified)
            if environment == nil && xcode == nil {
                record["environment"] = [
                    "enforced": false, "value": verified.environment.rawValue,
                    "note": "\(environments) accepted: pass --environment to require one",
                ]
            }
            // Only a chain to a trusted root has an anchor (not Xcode's self-signed certificate).
            if verified.trust == .appleChain, let last = verified.chain.last {
                record["anchor"] = RootsCommand.anchor(
                    last, source: builtIn ? "built in (\(AppleRootCertificates.signedData.name))" : "--root")
            }
            var out: [String: Any] = [
                "type": verified.kind.rawValue, "payload": JSONCLI.any(verified.payloadJSON), "verification": record,
                "unknownMembers": verified.unknownMembers,
            ]
            if let clientSide = try Self.clientSide(verified, deviceVerificationID: deviceVerificationId) {
                out["clientSide"] = clientSide
            }
            if case .notification(let notification) = verified, !rawNested {
                out["nested"] = try await Self.nested(
                    notification.payload, verifier: verifier.narrowed(to: notification.environment), at: time)
            }
            if let trace { Self.printTrace(trace, verdict: "VALID") }
            Output.printJSON(out)
        } catch let failure as CLIFailure {
            throw failure
        } catch let error as AppStoreError {
            if let trace { Self.printTrace(trace, verdict: error.code.rawValue) }
            var report: [String: Any] = ["error": error.code.rawValue, "message": error.reason, "retryable": error.isRetryable]
            if let hint = hint(for: error, environmentGiven: environment != nil, enforcedWithoutAppId: enforcedWithoutAppId) {
                report["hint"] = hint
            }
            if !error.failures.isEmpty {
                report["failures"] = error.failures.map { ["reason": $0.description, "rule": $0.rule] }
            }
            FileHandle.standardError.write(Data((Output.json(report) + "\n").utf8))
            Foundation.exit(1)
        }
    }

    /// The client-side members StoreKit's `jwsRepresentation` carries (`deviceVerification`,
    /// `deviceVerificationNonce`, `appTransactionId`), when present; with a device verification id
    /// the device binding is checked (a mismatch fails the command).
    static func clientSide(_ verified: VerifiedAnySignedData, deviceVerificationID: String?) throws(AppStoreError) -> [String: Any]? {
        let payload: (any DeviceVerifiablePayload)?
        let appTransactionId: String?
        switch verified {
        case .transaction(let v): (payload, appTransactionId) = (v.payload, v.payload.appTransactionId)
        case .renewalInfo(let v): (payload, appTransactionId) = (v.payload, v.payload.appTransactionId)
        case .appTransaction(let v): (payload, appTransactionId) = (v.payload, v.payload.appTransactionId)
        case .notification, .realtimeRequest: (payload, appTransactionId) = (nil, nil)
        }
        var out: [String: Any] = [:]
        if let value = payload?.deviceVerification { out["deviceVerification"] = value }
        if let value = payload?.deviceVerificationNonce { out["deviceVerificationNonce"] = value }
        if let appTransactionId { out["appTransactionId"] = appTransactionId }
        if let deviceVerificationID {
            guard let payload else {
                throw AppStoreError(.deviceVerificationMismatch, "a \(verified.kind.rawValue) carries no device verification")
            }
            try payload.checkDeviceVerification(deviceVerificationID: deviceVerificationID)
            out["deviceVerified"] = ["deviceVerificationId": deviceVerificationID.lowercased(), "matches": true] as [String: Any]
        }
        return out.isEmpty ? nil : out
    }

    /// A notification's nested signed data, each verified by the same verifier (the same root,
    /// identity and environment) and printed decoded with its verification record.
    static func nested(_ payload: ResponseBodyV2DecodedPayload, verifier: SignedDataVerifier, at time: Int64?) async throws(AppStoreError)
        -> [String: Any]
    {
        var out: [String: Any] = [:]
        let members: [(String, String?, SignedDataKind)] = [
            ("transaction", payload.data?.signedTransactionInfo, .transaction),
            ("renewalInfo", payload.data?.signedRenewalInfo, .renewalInfo),
            ("appTransaction", payload.appData?.signedAppTransactionInfo, .appTransaction),
        ]
        for (name, signed, kind) in members {
            guard let signed else { continue }
            let verified: VerifiedAnySignedData
            do { verified = try await verifier.verify(signed, kind: kind, at: time) } catch {
                throw AppStoreError(error.code, "the notification's nested \(name): \(error.reason)", failures: error.failures)
            }
            out[name] = ["payload": JSONCLI.any(verified.payloadJSON), "verification": record(verified)]
        }
        return out
    }

    /// The obvious next step for a failure, when there is one.
    func hint(for error: AppStoreError, environmentGiven: Bool, enforcedWithoutAppId: Bool) -> String? {
        switch error.code {
        case .invalidEnvironment where !environmentGiven && enforcedWithoutAppId:
            return "Production data is accepted only with --app-apple-id (the app's Apple id) when --bundle-id is given"
        case .invalidEnvironment where !environmentGiven:
            return "the payload names neither Production nor Sandbox: pass the environment it names with --environment"
        case .invalidEnvironment:
            return "the payload is for another environment: pass the one it names with --environment, or omit --environment "
                + "to accept Production and Sandbox"
        case .invalidConfiguration where error.reason.contains("app's Apple id"):
            return "pass --app-apple-id with the app's Apple id (App Store Connect, App Information)"
        case .verificationFailure, .retryableVerificationFailure:
            if error.failures.contains(where: { if case .noPathToTrustedRoot = $0 { true } else { false } }) && !roots.isEmpty {
                return "the chain does not end at a --root given: omit --root to use the built-in Apple Root CA - G3"
            }
            return nil
        default:
            return nil
        }
    }

    static func record(_ verified: VerifiedAnySignedData) -> [String: Any] {
        let common = verified
        var identity: [String: Any] = ["enforced": common.identity.enforced]
        if let bundle = common.identity.bundleId { identity["bundleId"] = bundle }
        if let appAppleId = common.identity.appAppleId { identity["appAppleId"] = appAppleId }
        if let environment = common.identity.environment { identity["environment"] = environment.rawValue }
        if !common.identity.enforced {
            identity["note"] = "bundle id and app Apple id not enforced: pass --bundle-id (and --app-apple-id in Production) to check them"
        }
        var record: [String: Any] = [
            "trust": common.trust.rawValue, "validationTime": X509Command.rfc3339(common.validationTime),
            "chain": common.chain.map(\.subject.rfc4514String), "chainFromCache": common.chainFromCache, "identity": identity,
        ]
        for fact in common.facts {
            switch fact {
            case .leafExpiredSinceSigning(let notAfter):
                record["leafExpiredSinceSigning"] = [
                    "leafNotAfter": X509Command.rfc3339(notAfter),
                    "note":
                        "valid when signed; Apple's remedy: fetch it again with Get Transaction Info (sigil api) for a current signature",
                ]
            }
        }
        return record
    }

    static func printTrace(_ trace: VerificationTrace, verdict: String) {
        let lines = Output.stepLines(traceSteps(trace)) + ["verdict: \(verdict)"]
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    static func traceSteps(_ trace: VerificationTrace) -> [(passed: Bool?, check: String, clause: String, detail: String)] {
        trace.steps.map { ($0.verdict == .pass ? true : $0.verdict == .fail ? false : nil, $0.check, $0.clause, $0.detail) }
    }
}
