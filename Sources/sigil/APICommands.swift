import ArgumentParser
import Foundation
import SigilAppStore
import SigilHTTP
import SigilJOSE

enum APIOutput {
    /// An Encodable response as pretty JSON with sorted keys.
    static func print<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Swift.print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func ok() { Swift.print(#"{"status":"ok"}"#) }
}

/// `sigil api ENDPOINT [ARG...]`: one App Store Server API, Retention Messaging or External
/// Purchase Server API call, response as JSON.
struct APICommand: AsyncParsableCommand {
    static let endpoints: [(name: String, usage: String)] = [
        ("transaction-info", "TRANSACTION_ID"),
        ("app-transaction-info", "TRANSACTION_ID"),
        (
            "transaction-history",
            "TRANSACTION_ID [revision=R] [version=v1|v2] [startDate=MS] [endDate=MS] [productId=P]… [productType=T]… "
                + "[sort=ASCENDING|DESCENDING] [subscriptionGroupIdentifier=G]… [inAppOwnershipType=T] [revoked=true|false] (--all: every page)"
        ),
        ("subscription-statuses", "TRANSACTION_ID [status=N]…"),
        ("refund-history", "TRANSACTION_ID [revision=R] (--all)"),
        ("order-lookup", "ORDER_ID"),
        ("extend-renewal-date", "ORIGINAL_TRANSACTION_ID --body ExtendRenewalDateRequest.json"),
        ("mass-extend-renewal-date", "--body MassExtendRenewalDateRequest.json"),
        ("mass-extend-status", "PRODUCT_ID REQUEST_IDENTIFIER"),
        ("consumption", "TRANSACTION_ID --body ConsumptionRequest.json (v2)"),
        ("consumption-v1", "TRANSACTION_ID --body ConsumptionRequestV1.json"),
        ("test-notification", ""),
        ("test-notification-status", "TEST_NOTIFICATION_TOKEN"),
        ("notification-history", "--body NotificationHistoryRequest.json [paginationToken=T] (--all)"),
        ("set-app-account-token", "ORIGINAL_TRANSACTION_ID UUID"),
        ("finish-transaction", "TRANSACTION_ID"),
        ("image-upload", "IMAGE_UUID --body image.png [imageSize=FULL_SIZE|BULLET_POINT]"),
        ("image-delete", "IMAGE_UUID"),
        ("image-list", ""),
        ("message-upload", "MESSAGE_UUID --body UploadMessageRequestBody.json"),
        ("message-delete", "MESSAGE_UUID"),
        ("message-list", ""),
        ("default-message-set", "PRODUCT_ID LOCALE MESSAGE_UUID"),
        ("default-message-delete", "PRODUCT_ID LOCALE"),
        ("default-message", "PRODUCT_ID LOCALE"),
        ("realtime-url-set", "HTTPS_URL"),
        ("realtime-url-delete", ""),
        ("realtime-url", ""),
        ("performance-test", "ORIGINAL_TRANSACTION_ID"),
        ("performance-test-result", "REQUEST_ID"),
        ("external-purchase-report", "--body ExternalPurchaseReport.json (External Purchase Server API)"),
        ("external-purchase-report-get", "REQUEST_IDENTIFIER_UUID (External Purchase Server API)"),
    ]

    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Call the App Store Server API (incl. Retention Messaging) or the External Purchase Server API; JSON out.",
        discussion: "Endpoints:\n" + endpoints.map { "  \($0.name) \($0.usage)" }.joined(separator: "\n")
            + "\n\nA fresh ES256 bearer token is minted from --key for every request. Request bodies are JSON files read strictly "
            + "(duplicate members refused). Failures print {error, message} on stderr: api.httpNNN with Apple's errorCode, "
            + "api.transport, or api.request for a request refused before sending.")

    @Option(help: "The .p8 private key file (PKCS#8 PEM from App Store Connect).") var key: String
    @Option(help: "The key's identifier (kid).") var keyId: String
    @Option(help: "Issuer id from App Store Connect.") var issuerId: String
    @Option(help: "The app's bundle id.") var bundleId: String
    @Option(help: "production, sandbox or local-testing.") var environment: String = "sandbox"
    @Option(help: "Another base URL (a proxy or test server); overrides --environment.") var baseUrl: String?
    @Option(help: "Seconds before a call is abandoned.") var timeout: Double = 30
    @Option(help: "Request body file (JSON, or PNG for image-upload).") var body: String?
    @Flag(help: "Follow revision / paginationToken to the last page; print an array of pages.") var all = false
    @Argument(help: "The endpoint (see the list above).") var endpoint: String
    @Argument(help: "Identifiers, then NAME=VALUE query parameters.") var arguments: [String] = []

    func run() async {
        do {
            try await call()
        } catch {
            CLIFailure(error).report()
        }
    }

    func signingKey() throws -> AppleSigningKey {
        do { return try AppleSigningKey(p8: try Input.read(key), keyID: keyId) } catch let e as AppStoreError {
            throw CLIFailure(e)
        }
    }

    func appStoreClient() throws -> AppStoreServerAPIClient {
        let env: AppStoreServerAPIClient.Environment
        if let baseUrl {
            env = .custom(baseURL: baseUrl)
        } else {
            switch environment {
            case "production": env = .production
            case "sandbox": env = .sandbox
            case "local-testing": env = .localTesting
            default: throw CLIFailure(code: "usage", message: "--environment is production, sandbox or local-testing")
            }
        }
        return AppStoreServerAPIClient(
            signingKey: try signingKey(), issuerID: issuerId, bundleID: bundleId, environment: env, timeout: timeout)
    }

    func externalPurchaseClient() throws -> ExternalPurchaseServerAPIClient {
        let env: ExternalPurchaseServerAPIClient.Environment
        if let baseUrl {
            env = .custom(baseURL: baseUrl)
        } else {
            switch environment {
            case "production": env = .production
            case "sandbox": env = .sandbox
            default: throw CLIFailure(code: "usage", message: "the External Purchase Server API has production and sandbox only")
            }
        }
        return ExternalPurchaseServerAPIClient(
            signingKey: try signingKey(), issuerID: issuerId, bundleID: bundleId, environment: env, timeout: timeout)
    }

    /// Positional identifiers and NAME=VALUE parameters, split.
    func split() -> (ids: [String], params: [(String, String)]) {
        var ids: [String] = []
        var params: [(String, String)] = []
        for argument in arguments {
            if ids.count >= expectedIdentifiers, let eq = argument.firstIndex(of: "=") {
                params.append((String(argument[..<eq]), String(argument[argument.index(after: eq)...])))
            } else {
                ids.append(argument)
            }
        }
        return (ids, params)
    }

    var expectedIdentifiers: Int {
        let usage = Self.endpoints.first { $0.name == endpoint }?.usage ?? ""
        return usage.split(separator: " ").prefix { $0.first?.isUppercase == true }.count
    }

    func ids(_ count: Int, _ list: [String]) throws -> [String] {
        guard list.count == count else {
            let usage = Self.endpoints.first { $0.name == endpoint }?.usage ?? ""
            throw CLIFailure(code: "usage", message: "sigil api \(endpoint) \(usage)")
        }
        return list
    }

    func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw CLIFailure(code: "usage", message: "\"\(text)\" is not a UUID") }
        return id
    }

    func requestBody<T: Decodable>(_ type: T.Type) throws -> T {
        guard let body else { throw CLIFailure(code: "usage", message: "\(endpoint) needs --body FILE (\(T.self) JSON)") }
        do { return try JSONValueDecoder().decode(T.self, fromJSON: try Input.read(body)) } catch {
            throw CLIFailure(code: "usage", message: "--body is not a valid \(T.self): \(error)")
        }
    }

    func call() async throws {
        guard Self.endpoints.contains(where: { $0.name == endpoint }) else {
            throw CLIFailure(
                code: "usage", message: "unknown endpoint \(endpoint); known: \(Self.endpoints.map(\.name).joined(separator: ", "))")
        }
        let (idList, params) = split()
        func values(_ name: String) -> [String] { params.filter { $0.0 == name }.map(\.1) }
        func value(_ name: String) -> String? { values(name).last }
        for (name, _) in params where !Self.knownParameters.contains(name) {
            throw CLIFailure(code: "usage", message: "unknown parameter \(name)")
        }
        if endpoint.hasPrefix("external-purchase-report") {
            let api = try externalPurchaseClient()
            if endpoint == "external-purchase-report" {
                _ = try ids(0, idList)
                try APIOutput.print(try await api.sendReport(try requestBody(ExternalPurchaseReport.self)))
            } else {
                try APIOutput.print(try await api.retrieveReport(requestIdentifier: try uuid(try ids(1, idList)[0])))
            }
            return
        }
        let api = try appStoreClient()
        switch endpoint {
        case "transaction-info":
            try APIOutput.print(try await api.getTransactionInfo(transactionId: try ids(1, idList)[0]))
        case "app-transaction-info":
            try APIOutput.print(try await api.getAppTransactionInfo(transactionId: try ids(1, idList)[0]))
        case "transaction-history":
            let id = try ids(1, idList)[0]
            var filters = TransactionHistoryRequest(
                productIds: values("productId"), subscriptionGroupIdentifiers: values("subscriptionGroupIdentifier"))
            filters.startDate = try value("startDate").map { try integer($0, "startDate") }
            filters.endDate = try value("endDate").map { try integer($0, "endDate") }
            filters.productTypes = try values("productType").map {
                guard let t = TransactionHistoryRequest.ProductType(rawValue: $0) else {
                    throw CLIFailure(code: "usage", message: "productType \($0)")
                }
                return t
            }
            filters.sort = try value("sort").map {
                guard let s = TransactionHistoryRequest.Sort(rawValue: $0) else { throw CLIFailure(code: "usage", message: "sort \($0)") }
                return s
            }
            filters.inAppOwnershipType = value("inAppOwnershipType").map(InAppOwnershipType.init(rawValue:))
            filters.revoked = try value("revoked").map {
                guard $0 == "true" || $0 == "false" else { throw CLIFailure(code: "usage", message: "revoked is true or false") }
                return $0 == "true"
            }
            guard let version = AppStoreServerAPIClient.HistoryVersion(rawValue: value("version") ?? "v2") else {
                throw CLIFailure(code: "usage", message: "version is v1 or v2")
            }
            if all {
                var pages: [HistoryResponse] = []
                for try await page in api.transactionHistory(transactionId: id, filters: filters, version: version) { pages.append(page) }
                try APIOutput.print(pages)
            } else {
                try APIOutput.print(
                    try await api.getTransactionHistory(transactionId: id, revision: value("revision"), filters: filters, version: version))
            }
        case "subscription-statuses":
            let statuses = try values("status").map { text -> Int32 in
                guard let n = Int32(text) else { throw CLIFailure(code: "usage", message: "status \(text) is not an integer") }
                return n
            }
            try APIOutput.print(try await api.getAllSubscriptionStatuses(transactionId: try ids(1, idList)[0], status: statuses))
        case "refund-history":
            let id = try ids(1, idList)[0]
            if all {
                var pages: [RefundHistoryResponse] = []
                for try await page in api.refundHistory(transactionId: id) { pages.append(page) }
                try APIOutput.print(pages)
            } else {
                try APIOutput.print(try await api.getRefundHistory(transactionId: id, revision: value("revision")))
            }
        case "order-lookup":
            try APIOutput.print(try await api.lookUpOrderId(orderId: try ids(1, idList)[0]))
        case "extend-renewal-date":
            try APIOutput.print(
                try await api.extendSubscriptionRenewalDate(
                    originalTransactionId: try ids(1, idList)[0],
                    request: try requestBody(ExtendRenewalDateRequest.self)))
        case "mass-extend-renewal-date":
            _ = try ids(0, idList)
            try APIOutput.print(
                try await api.extendRenewalDateForAllActiveSubscribers(request: try requestBody(MassExtendRenewalDateRequest.self)))
        case "mass-extend-status":
            let i = try ids(2, idList)
            try APIOutput.print(try await api.getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: i[1], productId: i[0]))
        case "consumption":
            try await api.sendConsumptionInformation(
                transactionId: try ids(1, idList)[0], request: try requestBody(ConsumptionRequest.self))
            APIOutput.ok()
        case "consumption-v1":
            try await api.sendConsumptionData(transactionId: try ids(1, idList)[0], request: try requestBody(ConsumptionRequestV1.self))
            APIOutput.ok()
        case "test-notification":
            _ = try ids(0, idList)
            try APIOutput.print(try await api.requestTestNotification())
        case "test-notification-status":
            try APIOutput.print(try await api.getTestNotificationStatus(testNotificationToken: try ids(1, idList)[0]))
        case "notification-history":
            _ = try ids(0, idList)
            let request = try requestBody(NotificationHistoryRequest.self)
            if all {
                var pages: [NotificationHistoryResponse] = []
                for try await page in api.notificationHistory(request: request) { pages.append(page) }
                try APIOutput.print(pages)
            } else {
                try APIOutput.print(try await api.getNotificationHistory(paginationToken: value("paginationToken"), request: request))
            }
        case "set-app-account-token":
            let i = try ids(2, idList)
            try await api.setAppAccountToken(originalTransactionId: i[0], appAccountToken: try uuid(i[1]))
            APIOutput.ok()
        case "finish-transaction":
            try await api.finishTransaction(transactionId: try ids(1, idList)[0])
            APIOutput.ok()
        case "image-upload":
            guard let body else { throw CLIFailure(code: "usage", message: "image-upload needs --body FILE.png") }
            try await api.uploadImage(
                imageIdentifier: try uuid(try ids(1, idList)[0]), png: try Input.read(body),
                imageSize: value("imageSize").map(ImageSize.init(rawValue:)))
            APIOutput.ok()
        case "image-delete":
            try await api.deleteImage(imageIdentifier: try uuid(try ids(1, idList)[0]))
            APIOutput.ok()
        case "image-list":
            _ = try ids(0, idList)
            try APIOutput.print(try await api.getImageList())
        case "message-upload":
            try await api.uploadMessage(
                messageIdentifier: try uuid(try ids(1, idList)[0]), body: try requestBody(UploadMessageRequestBody.self))
            APIOutput.ok()
        case "message-delete":
            try await api.deleteMessage(messageIdentifier: try uuid(try ids(1, idList)[0]))
            APIOutput.ok()
        case "message-list":
            _ = try ids(0, idList)
            try APIOutput.print(try await api.getMessageList())
        case "default-message-set":
            let i = try ids(3, idList)
            try await api.configureDefaultMessage(
                productId: i[0], locale: i[1], request: DefaultConfigurationRequest(messageIdentifier: try uuid(i[2])))
            APIOutput.ok()
        case "default-message-delete":
            let i = try ids(2, idList)
            try await api.deleteDefaultMessage(productId: i[0], locale: i[1])
            APIOutput.ok()
        case "default-message":
            let i = try ids(2, idList)
            try APIOutput.print(try await api.getDefaultMessage(productId: i[0], locale: i[1]))
        case "realtime-url-set":
            try await api.configureRealtimeURL(request: RealtimeUrlRequest(realtimeURL: try ids(1, idList)[0]))
            APIOutput.ok()
        case "realtime-url-delete":
            _ = try ids(0, idList)
            try await api.deleteRealtimeURL()
            APIOutput.ok()
        case "realtime-url":
            _ = try ids(0, idList)
            try APIOutput.print(try await api.getRealtimeURL())
        case "performance-test":
            try APIOutput.print(
                try await api.initiatePerformanceTest(request: PerformanceTestRequest(originalTransactionId: try ids(1, idList)[0])))
        case "performance-test-result":
            try APIOutput.print(try await api.getPerformanceTestResults(requestId: try ids(1, idList)[0]))
        default:
            throw CLIFailure(code: "usage", message: "unknown endpoint \(endpoint)")
        }
    }

    static let knownParameters: Set<String> = [
        "revision", "version", "startDate", "endDate", "productId", "productType", "sort",
        "subscriptionGroupIdentifier", "inAppOwnershipType", "revoked", "status", "paginationToken", "imageSize",
    ]

    func integer(_ text: String, _ name: String) throws -> Int64 {
        guard let n = Int64(text) else { throw CLIFailure(code: "usage", message: "\(name) \(text) is not an integer (milliseconds)") }
        return n
    }
}

/// `sigil siwa …`: Sign in with Apple from the shell.
struct SIWACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "siwa",
        abstract: "Sign in with Apple: exchange or refresh tokens, revoke, verify identity tokens.",
        subcommands: [Token.self, Revoke.self, VerifyIDToken.self])

    struct ClientOptions: ParsableArguments {
        @Option(help: "The .p8 private key file (Sign in with Apple key).") var key: String
        @Option(help: "The key's identifier (kid).") var keyId: String
        @Option(help: "Team id.") var teamId: String
        @Option(help: "Client id (Services ID or bundle id).") var clientId: String
        @Option(help: "Base URL (default Apple's; a test server otherwise).") var baseUrl: String = "https://appleid.apple.com"
        @Option(help: "Seconds before a call is abandoned.") var timeout: Double = 30

        func client() throws -> SignInWithAppleClient {
            let signing: AppleSigningKey
            do { signing = try AppleSigningKey(p8: try Input.read(key), keyID: keyId) } catch let e as AppStoreError {
                throw CLIFailure(e)
            }
            return SignInWithAppleClient(signingKey: signing, teamID: teamId, clientID: clientId, baseURL: baseUrl, timeout: timeout)
        }
    }

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token", abstract: "POST /auth/token: exchange an authorization code or refresh a token; TokenResponse JSON out.")
        @OptionGroup var options: ClientOptions
        @Option(help: "Authorization code (authorization_code grant).") var code: String?
        @Option(help: "Refresh token (refresh_token grant).") var refreshToken: String?
        @Option(help: "redirect_uri, sent only when given (required if the authorization request had one).") var redirectUri: String?
        @Flag(help: "Also verify the returned id_token against Apple's keys and print its claims.") var verify = false

        func run() async {
            do {
                let client = try options.client()
                let response: SignInWithAppleTokenResponse
                switch (code, refreshToken) {
                case (let code?, nil): response = try await client.exchangeCode(code, redirectURI: redirectUri)
                case (nil, let refresh?):
                    guard redirectUri == nil else { throw CLIFailure(code: "usage", message: "--redirect-uri goes with --code only") }
                    response = try await client.refresh(refreshToken: refresh)
                default: throw CLIFailure(code: "usage", message: "give exactly one of --code and --refresh-token")
                }
                guard verify, let idToken = response.id_token else { return try APIOutput.print(response) }
                let identity = try await client.verifyIdentityToken(idToken)
                let encoded = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(response))
                Output.printJSON(["response": encoded, "identity": SIWACommand.describe(identity)])
            } catch {
                CLIFailure(error).report()
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "POST /auth/revoke.")
        @OptionGroup var options: ClientOptions
        @Option(help: "The access or refresh token to revoke.") var token: String
        @Option(help: "access_token or refresh_token.") var hint: String?

        func run() async {
            do {
                let typeHint = try hint.map {
                    guard let h = SignInWithAppleClient.TokenTypeHint(rawValue: $0) else {
                        throw CLIFailure(code: "usage", message: "--hint is access_token or refresh_token")
                    }
                    return h
                }
                try await options.client().revoke(token: token, hint: typeHint)
                APIOutput.ok()
            } catch {
                CLIFailure(error).report()
            }
        }
    }

    struct VerifyIDToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify-id-token",
            abstract: "Verify an identity token (RS256 against Apple's JWKS, iss, aud, exp, iat, nonce); claims JSON out.")
        @Option(help: "Accepted audience (repeatable).") var clientId: [String]
        @Option(help: "JWKS file or http(s) URL (default https://appleid.apple.com/auth/keys).") var jwks: String?
        @Option(help: "Expected nonce.") var nonce: String?
        @Option(help: "Verification time, unix seconds or RFC 3339 (default: now).") var at: String?
        @Option(help: "Clock skew tolerated, seconds.") var leeway: Double = 60
        @Argument(help: "The identity token, or - for standard input.") var token: String

        func run() async {
            do {
                guard !clientId.isEmpty else { throw CLIFailure(code: "usage", message: "--client-id is required") }
                let text: String
                if token == "-" {
                    text = String(decoding: try Input.read("-"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                } else {
                    text = token
                }
                let now: Double
                if let at {
                    guard let t = X509Command.parseTime(at) else {
                        throw CLIFailure(code: "usage", message: "--at must be RFC 3339 or unix seconds")
                    }
                    now = Double(t)
                } else {
                    now = Date().timeIntervalSince1970
                }
                let source = jwks ?? "https://appleid.apple.com/auth/keys"
                let keys: JWKS
                if source.hasPrefix("http://") || source.hasPrefix("https://") {
                    let response = try await URLSessionHTTPTransport().send(
                        HTTPRequest(method: "GET", url: source), timeout: 30,
                        maximumResponseSize: 1 << 20)
                    guard response.status == 200 else {
                        throw CLIFailure(code: "siwa.jwks", message: "\(source) answered HTTP \(response.status)")
                    }
                    keys = try JWKS(parsing: response.body)
                } else {
                    keys = try JWKS(parsing: try Input.read(source))
                }
                let identity = try AppleIdentityTokenVerifier(clientIDs: clientId, leeway: leeway).verify(
                    text, keys: keys, now: now, nonce: nonce)
                Output.printJSON(SIWACommand.describe(identity))
            } catch {
                CLIFailure(error).report()
            }
        }
    }

    static func describe(_ identity: AppleIdentityToken) -> [String: Any] {
        var out: [String: Any] = [
            "verified": true, "kid": identity.keyID, "sub": identity.subject, "aud": identity.audience,
            "iat": identity.issuedAt, "exp": identity.expiration, "claims": JSONCLI.any(identity.claims.json),
        ]
        if let v = identity.email { out["email"] = v }
        if let v = identity.emailVerified { out["email_verified"] = v }
        if let v = identity.isPrivateEmail { out["is_private_email"] = v }
        if let v = identity.realUserStatus { out["real_user_status"] = v.rawValue }
        if let v = identity.transferSubject { out["transfer_sub"] = v }
        if let v = identity.nonce { out["nonce"] = v }
        return out
    }
}
