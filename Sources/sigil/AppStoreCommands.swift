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

    func signingKey() throws -> AppleSigningKey { try AppleSigningKey(p8: try Input.read(key), keyID: keyId) }

    func now() throws -> Int64 {
        try Input.time(issuedAt, option: "--issued-at") ?? Int64(Date().timeIntervalSince1970)
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
                try signing.emit(
                    try AppleTokens.appStoreServerAPI(
                        key: try signing.signingKey(), issuerID: issuerId, bundleID: bundleId,
                        issuedAt: try signing.now(), lifetime: ttl))
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
                try signing.emit(
                    try AppleTokens.externalPurchaseServerAPI(
                        key: try signing.signingKey(), issuerID: issuerId, bundleID: bundleId,
                        issuedAt: try signing.now(), lifetime: ttl))
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
                try signing.emit(
                    try AppleTokens.signInWithAppleClientSecret(
                        key: try signing.signingKey(), teamID: teamId, clientID: clientId,
                        issuedAt: try signing.now(), lifetime: ttl))
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
                try signing.emit(
                    try AppleTokens.proximityReaderToken(
                        key: try signing.signingKey(), brandID: brandId, readerID: readerId,
                        issuedAt: try signing.now(), lifetime: ttl))
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
                try signing.emit(
                    try AppleTokens.deviceCheck(key: try signing.signingKey(), teamID: teamId, issuedAt: try signing.now()))
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
                    try signing.emit(
                        try AppleTokens.promotionalOfferV2(
                            key: key, issuerID: issuerId, bundleID: bundleId, productID: productId,
                            offerIdentifier: offerId, transactionID: transactionId, nonce: nonce, issuedAt: now))
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
                            "notBefore": Time.rfc3339(c.validity.notBefore),
                            "notAfter": Time.rfc3339(c.validity.notAfter),
                        ]
                    }
                }
                Output.printJSON(out)
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
            {"error", "message", "failures"?, "hint"?} goes to stderr as JSON (exit 1): the error is the status in Apple's \
            names (appstore.INVALID_JWT_FORMAT, appstore.VERIFICATION_FAILURE, …), failures the chain's typed reasons. --explain prints each step with the spec clause it implements to stderr. \
            Xcode's StoreKit-testing data is signed by Xcode's own certificate, alone in x5c and never Apple's: \
            --xcode-certificate FILE requires x5c[0] to be that certificate (`sigil receipt verify --xcode-certificate` \
            does the same for Xcode's receipts); --environment Xcode alone trusts the certificate the data carries.
            """)
    @Option(
        name: .customLong("root"),
        help: "A trusted root certificate instead of the built-in Apple Root CA - G3 (repeatable; DER or PEM).")
    var roots: [String] = []
    @Option(help: "The payload's kind (default: told by its distinctive members; Sigil does not guess when they fit several).")
    var type: SignedDataKind?
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

    func run() async {
        do { try await verify() } catch { CLIFailure(error).report() }
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
        for root in roots { trusted += try Input.certificates(root) }
        let builtIn = trusted.isEmpty
        if builtIn { trusted = [try RootsCommand.certificate(AppleRootCertificates.signedData)] }
        let time = try Input.time(at, option: "--at")
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
            guard let certificate = try Input.certificates(xcodeCertificate).first else {
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
            let verified = try await verifier.verify(text, kind: type, at: time, trace: trace)
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
            // A notification's nested data, verified by the library with the same verifier; each
            // member printed under its kind's name.
            if case .notification(let notification) = verified, !rawNested {
                var nested: [String: Any] = [:]
                for member in try await verifier.verifyNested(in: notification, at: time).nested {
                    nested[member.kind.rawValue] = ["payload": JSONCLI.any(member.payloadJSON), "verification": Self.record(member)]
                }
                out["nested"] = nested
            }
            Output.printTrace(trace, verdict: "VALID")
            Output.printJSON(out)
        } catch let error as AppStoreError {
            Output.printTrace(trace, verdict: error.code.rawValue)
            throw CLIFailure(
                error, hint: hint(for: error, environmentGiven: environment != nil, enforcedWithoutAppId: enforcedWithoutAppId))
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
        case .appAppleIdRequired:
            return "pass --app-apple-id with the app's Apple id (App Store Connect, App Information)"
        case .retryableVerificationFailure:
            return "the online (OCSP) check could not be completed because of the network: try again later"
        case .verificationFailure:
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
            "trust": common.trust.rawValue, "validationTime": Time.rfc3339(common.validationTime),
            "chain": common.chain.map(\.subject.rfc4514String), "chainFromCache": common.chainFromCache, "identity": identity,
        ]
        for fact in common.facts {
            switch fact {
            case .leafExpiredSinceSigning(let notAfter):
                record["leafExpiredSinceSigning"] = [
                    "leafNotAfter": Time.rfc3339(notAfter),
                    "note":
                        "valid when signed; Apple's remedy: fetch it again with Get Transaction Info (sigil api) for a current signature",
                ]
            }
        }
        return record
    }
}

/// `--type transaction|renewal-info|notification|app-transaction|realtime`: the library's kinds by
/// their names; without `--type` the verifier tells the kind by the payload's members.
extension SignedDataKind: ExpressibleByArgument {}
