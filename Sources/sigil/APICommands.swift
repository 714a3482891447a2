import ArgumentParser
import Foundation
import SigilAdvancedCommerce
import SigilAppStore
import SigilHTTP
import SigilJOSE
import SigilTokens

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
    /// What one endpoint does with the parsed command line: the client it calls, the identifiers
    /// and parameters given.
    enum Perform: Sendable {
        case appStore(@Sendable (AppStoreServerAPIClient, APICall) async throws -> Void)
        case externalPurchase(@Sendable (ExternalPurchaseServerAPIClient, APICall) async throws -> Void)
    }

    /// One endpoint: its name on the command line, its usage line, how many identifiers come
    /// before the NAME=VALUE parameters, and the call.
    struct Endpoint: Sendable {
        let name: String
        let usage: String
        let identifiers: Int
        let perform: Perform

        init(_ name: String, _ usage: String, identifiers: Int, _ perform: Perform) {
            self.name = name
            self.usage = usage
            self.identifiers = identifiers
            self.perform = perform
        }
    }

    /// Every endpoint `sigil api` calls, in the order `--help` lists them.
    static let endpoints: [Endpoint] = [
        Endpoint(
            "transaction-info", "TRANSACTION_ID", identifiers: 1,
            .appStore { api, c in try APIOutput.print(try await api.getTransactionInfo(transactionId: c.ids[0])) }),
        Endpoint(
            "app-transaction-info", "TRANSACTION_ID", identifiers: 1,
            .appStore { api, c in try APIOutput.print(try await api.getAppTransactionInfo(transactionId: c.ids[0])) }),
        Endpoint(
            "transaction-history",
            "TRANSACTION_ID [revision=R] [version=v1|v2] [startDate=MS] [endDate=MS] [productId=P]… [productType=T]… "
                + "[sort=ASCENDING|DESCENDING] [subscriptionGroupIdentifier=G]… [inAppOwnershipType=T] [revoked=true|false] (--all: every page)",
            identifiers: 1, .appStore(transactionHistory)),
        Endpoint(
            "subscription-statuses", "TRANSACTION_ID [status=N]…", identifiers: 1,
            .appStore { api, c in
                let statuses = try c.values("status").map { text -> Int32 in
                    guard let n = Int32(text) else { throw CLIFailure(code: "usage", message: "status \(text) is not an integer") }
                    return n
                }
                try APIOutput.print(try await api.getAllSubscriptionStatuses(transactionId: c.ids[0], status: statuses))
            }),
        Endpoint(
            "refund-history", "TRANSACTION_ID [revision=R] (--all)", identifiers: 1,
            .appStore { api, c in
                if c.all {
                    var pages: [RefundHistoryResponse] = []
                    for try await page in api.refundHistory(transactionId: c.ids[0]) { pages.append(page) }
                    try APIOutput.print(pages)
                } else {
                    try APIOutput.print(try await api.getRefundHistory(transactionId: c.ids[0], revision: c.value("revision")))
                }
            }),
        Endpoint(
            "order-lookup", "ORDER_ID", identifiers: 1,
            .appStore { api, c in try APIOutput.print(try await api.lookUpOrderId(orderId: c.ids[0])) }),
        Endpoint(
            "extend-renewal-date", "ORIGINAL_TRANSACTION_ID --body ExtendRenewalDateRequest.json", identifiers: 1,
            .appStore { api, c in
                try APIOutput.print(
                    try await api.extendSubscriptionRenewalDate(
                        originalTransactionId: c.ids[0], request: try c.body(ExtendRenewalDateRequest.self)))
            }),
        Endpoint(
            "mass-extend-renewal-date", "--body MassExtendRenewalDateRequest.json", identifiers: 0,
            .appStore { api, c in
                try APIOutput.print(
                    try await api.extendRenewalDateForAllActiveSubscribers(request: try c.body(MassExtendRenewalDateRequest.self)))
            }),
        Endpoint(
            "mass-extend-status", "PRODUCT_ID REQUEST_IDENTIFIER", identifiers: 2,
            .appStore { api, c in
                try APIOutput.print(
                    try await api.getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: c.ids[1], productId: c.ids[0]))
            }),
        Endpoint(
            "consumption", "TRANSACTION_ID --body ConsumptionRequest.json (v2)", identifiers: 1,
            .appStore { api, c in
                try await api.sendConsumptionInformation(transactionId: c.ids[0], request: try c.body(ConsumptionRequest.self))
                APIOutput.ok()
            }),
        Endpoint(
            "consumption-v1", "TRANSACTION_ID --body ConsumptionRequestV1.json", identifiers: 1,
            .appStore { api, c in
                try await api.sendConsumptionData(transactionId: c.ids[0], request: try c.body(ConsumptionRequestV1.self))
                APIOutput.ok()
            }),
        Endpoint(
            "test-notification", "", identifiers: 0,
            .appStore { api, _ in try APIOutput.print(try await api.requestTestNotification()) }),
        Endpoint(
            "test-notification-status", "TEST_NOTIFICATION_TOKEN", identifiers: 1,
            .appStore { api, c in try APIOutput.print(try await api.getTestNotificationStatus(testNotificationToken: c.ids[0])) }),
        Endpoint(
            "notification-history", "--body NotificationHistoryRequest.json [paginationToken=T] (--all)", identifiers: 0,
            .appStore { api, c in
                let request = try c.body(NotificationHistoryRequest.self)
                if c.all {
                    var pages: [NotificationHistoryResponse] = []
                    for try await page in api.notificationHistory(request: request) { pages.append(page) }
                    try APIOutput.print(pages)
                } else {
                    try APIOutput.print(try await api.getNotificationHistory(paginationToken: c.value("paginationToken"), request: request))
                }
            }),
        Endpoint(
            "set-app-account-token", "ORIGINAL_TRANSACTION_ID UUID", identifiers: 2,
            .appStore { api, c in
                try await api.setAppAccountToken(originalTransactionId: c.ids[0], appAccountToken: try c.uuid(c.ids[1]))
                APIOutput.ok()
            }),
        Endpoint(
            "finish-transaction", "TRANSACTION_ID", identifiers: 1,
            .appStore { api, c in
                try await api.finishTransaction(transactionId: c.ids[0])
                APIOutput.ok()
            }),
        Endpoint(
            "image-upload", "IMAGE_UUID --body image.png [imageSize=FULL_SIZE|BULLET_POINT]", identifiers: 1,
            .appStore { api, c in
                guard let body = c.bodyPath else { throw CLIFailure(code: "usage", message: "image-upload needs --body FILE.png") }
                try await api.uploadImage(
                    imageIdentifier: try c.uuid(c.ids[0]), png: try Input.read(body),
                    imageSize: c.value("imageSize").map(ImageSize.init(rawValue:)))
                APIOutput.ok()
            }),
        Endpoint(
            "image-delete", "IMAGE_UUID", identifiers: 1,
            .appStore { api, c in
                try await api.deleteImage(imageIdentifier: try c.uuid(c.ids[0]))
                APIOutput.ok()
            }),
        Endpoint("image-list", "", identifiers: 0, .appStore { api, _ in try APIOutput.print(try await api.getImageList()) }),
        Endpoint(
            "message-upload", "MESSAGE_UUID --body UploadMessageRequestBody.json", identifiers: 1,
            .appStore { api, c in
                try await api.uploadMessage(messageIdentifier: try c.uuid(c.ids[0]), body: try c.body(UploadMessageRequestBody.self))
                APIOutput.ok()
            }),
        Endpoint(
            "message-delete", "MESSAGE_UUID", identifiers: 1,
            .appStore { api, c in
                try await api.deleteMessage(messageIdentifier: try c.uuid(c.ids[0]))
                APIOutput.ok()
            }),
        Endpoint("message-list", "", identifiers: 0, .appStore { api, _ in try APIOutput.print(try await api.getMessageList()) }),
        Endpoint(
            "default-message-set", "PRODUCT_ID LOCALE MESSAGE_UUID", identifiers: 3,
            .appStore { api, c in
                try await api.configureDefaultMessage(
                    productId: c.ids[0], locale: c.ids[1], request: DefaultConfigurationRequest(messageIdentifier: try c.uuid(c.ids[2])))
                APIOutput.ok()
            }),
        Endpoint(
            "default-message-delete", "PRODUCT_ID LOCALE", identifiers: 2,
            .appStore { api, c in
                try await api.deleteDefaultMessage(productId: c.ids[0], locale: c.ids[1])
                APIOutput.ok()
            }),
        Endpoint(
            "default-message", "PRODUCT_ID LOCALE", identifiers: 2,
            .appStore { api, c in try APIOutput.print(try await api.getDefaultMessage(productId: c.ids[0], locale: c.ids[1])) }),
        Endpoint(
            "realtime-url-set", "HTTPS_URL", identifiers: 1,
            .appStore { api, c in
                try await api.configureRealtimeURL(request: RealtimeUrlRequest(realtimeURL: c.ids[0]))
                APIOutput.ok()
            }),
        Endpoint(
            "realtime-url-delete", "", identifiers: 0,
            .appStore { api, _ in
                try await api.deleteRealtimeURL()
                APIOutput.ok()
            }),
        Endpoint("realtime-url", "", identifiers: 0, .appStore { api, _ in try APIOutput.print(try await api.getRealtimeURL()) }),
        Endpoint(
            "performance-test", "ORIGINAL_TRANSACTION_ID", identifiers: 1,
            .appStore { api, c in
                try APIOutput.print(try await api.initiatePerformanceTest(request: PerformanceTestRequest(originalTransactionId: c.ids[0])))
            }),
        Endpoint(
            "performance-test-result", "REQUEST_ID", identifiers: 1,
            .appStore { api, c in try APIOutput.print(try await api.getPerformanceTestResults(requestId: c.ids[0])) }),
        Endpoint(
            "advanced-commerce-cancel", "TRANSACTION_ID --body SubscriptionCancelRequest.json (Advanced Commerce API)", identifiers: 1,
            .appStore { api, c in
                try APIOutput.print(
                    try await api.cancelSubscription(
                        transactionId: c.ids[0], request: try c.body(AdvancedCommerceSubscriptionCancelRequest.self)))
            }),
        Endpoint(
            "advanced-commerce-revoke", "TRANSACTION_ID --body SubscriptionRevokeRequest.json (Advanced Commerce API)", identifiers: 1,
            .appStore { api, c in
                try APIOutput.print(
                    try await api.revokeSubscription(
                        transactionId: c.ids[0], request: try c.body(AdvancedCommerceSubscriptionRevokeRequest.self)))
            }),
        Endpoint(
            "advanced-commerce-change-metadata", "TRANSACTION_ID --body SubscriptionChangeMetadataRequest.json (Advanced Commerce API)",
            identifiers: 1,
            .appStore { api, c in
                try APIOutput.print(
                    try await api.changeSubscriptionMetadata(
                        transactionId: c.ids[0], request: try c.body(AdvancedCommerceSubscriptionChangeMetadataRequest.self)))
            }),
        Endpoint(
            "advanced-commerce-change-price", "TRANSACTION_ID --body SubscriptionPriceChangeRequest.json (Advanced Commerce API)",
            identifiers: 1,
            .appStore { api, c in
                try APIOutput.print(
                    try await api.changeSubscriptionPrice(
                        transactionId: c.ids[0], request: try c.body(AdvancedCommerceSubscriptionPriceChangeRequest.self)))
            }),
        Endpoint(
            "advanced-commerce-migrate", "TRANSACTION_ID --body SubscriptionMigrateRequest.json (Advanced Commerce API)", identifiers: 1,
            .appStore { api, c in
                try APIOutput.print(
                    try await api.migrateSubscription(
                        transactionId: c.ids[0], request: try c.body(AdvancedCommerceSubscriptionMigrateRequest.self)))
            }),
        Endpoint(
            "advanced-commerce-request-refund", "TRANSACTION_ID --body RequestRefundRequest.json (Advanced Commerce API)", identifiers: 1,
            .appStore { api, c in
                try APIOutput.print(
                    try await api.requestTransactionRefund(
                        transactionId: c.ids[0], request: try c.body(AdvancedCommerceRequestRefundRequest.self)))
            }),
        Endpoint(
            "external-purchase-report", "--body ExternalPurchaseReport.json (External Purchase Server API)", identifiers: 0,
            .externalPurchase { api, c in try APIOutput.print(try await api.sendReport(try c.body(ExternalPurchaseReport.self))) }),
        Endpoint(
            "external-purchase-report-get", "REQUEST_IDENTIFIER_UUID (External Purchase Server API)", identifiers: 1,
            .externalPurchase { api, c in try APIOutput.print(try await api.retrieveReport(requestIdentifier: try c.uuid(c.ids[0]))) }),
    ]

    /// `transaction-history`: the filters from NAME=VALUE parameters, one page or every page.
    @Sendable static func transactionHistory(_ api: AppStoreServerAPIClient, _ c: APICall) async throws {
        var filters = TransactionHistoryRequest(
            productIds: c.values("productId"), subscriptionGroupIdentifiers: c.values("subscriptionGroupIdentifier"))
        filters.startDate = try c.value("startDate").map { try c.integer($0, "startDate") }
        filters.endDate = try c.value("endDate").map { try c.integer($0, "endDate") }
        filters.productTypes = try c.values("productType").map {
            guard let t = TransactionHistoryRequest.ProductType(rawValue: $0) else {
                throw CLIFailure(code: "usage", message: "productType \($0)")
            }
            return t
        }
        filters.sort = try c.value("sort").map {
            guard let s = TransactionHistoryRequest.Sort(rawValue: $0) else { throw CLIFailure(code: "usage", message: "sort \($0)") }
            return s
        }
        filters.inAppOwnershipType = c.value("inAppOwnershipType").map(InAppOwnershipType.init(rawValue:))
        filters.revoked = try c.value("revoked").map {
            guard $0 == "true" || $0 == "false" else { throw CLIFailure(code: "usage", message: "revoked is true or false") }
            return $0 == "true"
        }
        guard let version = AppStoreServerAPIClient.HistoryVersion(rawValue: c.value("version") ?? "v2") else {
            throw CLIFailure(code: "usage", message: "version is v1 or v2")
        }
        if c.all {
            var pages: [HistoryResponse] = []
            for try await page in api.transactionHistory(transactionId: c.ids[0], filters: filters, version: version) { pages.append(page) }
            try APIOutput.print(pages)
        } else {
            try APIOutput.print(
                try await api.getTransactionHistory(
                    transactionId: c.ids[0], revision: c.value("revision"), filters: filters, version: version))
        }
    }

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
    @Option(
        help:
            "production, sandbox, legacy-production, legacy-sandbox (the …itunes.apple.com hosts used before 2026-05-05) or local-testing."
    )
    var environment: String = "sandbox"
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

    func signingKey() throws -> AppleSigningKey { try AppleSigningKey(p8: try Input.read(key), keyID: keyId) }

    func appStoreClient() throws -> AppStoreServerAPIClient {
        let env: AppStoreServerAPIClient.Environment
        if let baseUrl {
            env = .custom(baseURL: baseUrl)
        } else {
            switch environment {
            case "production": env = .production
            case "sandbox": env = .sandbox
            case "local-testing": env = .localTesting
            case "legacy-production": env = .legacyProduction
            case "legacy-sandbox": env = .legacySandbox
            default:
                throw CLIFailure(
                    code: "usage", message: "--environment is production, sandbox, legacy-production, legacy-sandbox or local-testing")
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

    var expectedIdentifiers: Int { Self.endpoints.first { $0.name == endpoint }?.identifiers ?? 0 }

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

    /// Parse → call → print: the endpoint from the table, its identifiers and parameters
    /// checked, the client it needs built, its call made.
    func call() async throws {
        guard let chosen = Self.endpoints.first(where: { $0.name == endpoint }) else {
            throw CLIFailure(
                code: "usage", message: "unknown endpoint \(endpoint); known: \(Self.endpoints.map(\.name).joined(separator: ", "))")
        }
        let (idList, params) = split()
        for (name, _) in params where !Self.knownParameters.contains(name) {
            throw CLIFailure(code: "usage", message: "unknown parameter \(name)")
        }
        let call = APICall(command: self, ids: try ids(chosen.identifiers, idList), params: params)
        switch chosen.perform {
        case .appStore(let perform): try await perform(try appStoreClient(), call)
        case .externalPurchase(let perform): try await perform(try externalPurchaseClient(), call)
        }
    }

    static let knownParameters: Set<String> = [
        "revision", "version", "startDate", "endDate", "productId", "productType", "sort",
        "subscriptionGroupIdentifier", "inAppOwnershipType", "revoked", "status", "paginationToken", "imageSize",
    ]
}

/// One `sigil api` call as an endpoint's closure sees it: identifiers (already counted),
/// NAME=VALUE parameters, `--all` and the request body.
struct APICall {
    let command: APICommand
    let ids: [String]
    let params: [(String, String)]

    var all: Bool { command.all }
    var bodyPath: String? { command.body }
    /// Every value given for parameter `name`, in order.
    func values(_ name: String) -> [String] { params.filter { $0.0 == name }.map(\.1) }
    /// The last value given for parameter `name`.
    func value(_ name: String) -> String? { values(name).last }
    /// The `--body` file decoded strictly as `T`.
    func body<T: Decodable>(_ type: T.Type) throws -> T { try command.requestBody(type) }
    /// `text` as a UUID, or a usage error.
    func uuid(_ text: String) throws -> UUID { try command.uuid(text) }
    /// `text` as milliseconds, or a usage error naming the parameter.
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
        subcommands: [Token.self, Revoke.self, VerifyIDToken.self, Notification.self])

    struct ClientOptions: ParsableArguments {
        @Option(help: "The .p8 private key file (Sign in with Apple key).") var key: String
        @Option(help: "The key's identifier (kid).") var keyId: String
        @Option(help: "Team id.") var teamId: String
        @Option(help: "Client id (Services ID or bundle id).") var clientId: String
        @Option(help: "Base URL (default Apple's; a test server otherwise).") var baseUrl: String = "https://appleid.apple.com"
        @Option(help: "Seconds before a call is abandoned.") var timeout: Double = 30

        func client() throws -> SignInWithAppleClient {
            let signing: AppleSigningKey
            signing = try AppleSigningKey(p8: try Input.read(key), keyID: keyId)
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
                let now = try Input.time(at, option: "--at").map(Double.init) ?? Date().timeIntervalSince1970
                let keys = try await SIWACommand.keys(jwks)
                let identity = try AppleIdentityTokenVerifier(clientIDs: clientId, leeway: leeway).verify(
                    text, keys: keys, now: now, nonce: nonce)
                Output.printJSON(SIWACommand.describe(identity))
            } catch {
                CLIFailure(error).report()
            }
        }
    }

    /// `sigil siwa notification …`: Sign in with Apple server-to-server notifications.
    struct Notification: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notification", abstract: "Sign in with Apple server-to-server notifications.",
            subcommands: [Verify.self])

        struct Verify: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "verify",
                abstract:
                    "Verify a notification Apple POSTed (its body {\"payload\": …} or the JWT: RS256 against Apple's JWKS, iss, aud, exp, iat, events); the event JSON out."
            )
            @Option(help: "Accepted audience: the primary App ID's bundle id or a Services ID (repeatable).") var clientId: [String]
            @Option(help: "JWKS file or http(s) URL (default https://appleid.apple.com/auth/keys).") var jwks: String?
            @Option(help: "Verification time, unix seconds or RFC 3339 (default: now).") var at: String?
            @Option(help: "Clock skew tolerated, seconds.") var leeway: Double = 60
            @Argument(help: "The POST body or the JWT: a file, the text itself, or - for standard input.") var notification: String

            func run() async {
                do {
                    guard !clientId.isEmpty else { throw CLIFailure(code: "usage", message: "--client-id is required") }
                    let bytes: [UInt8]
                    if notification == "-" || FileManager.default.fileExists(atPath: notification) {
                        bytes = try Input.read(notification)
                    } else {
                        bytes = Array(notification.utf8)
                    }
                    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    let token = text.hasPrefix("{") ? try AppleIDServerNotificationVerifier.payload(ofBody: Array(text.utf8)) : text
                    let now = try Input.time(at, option: "--at").map(Double.init) ?? Date().timeIntervalSince1970
                    let keys = try await SIWACommand.keys(jwks)
                    let verified = try AppleIDServerNotificationVerifier(clientIDs: clientId, leeway: leeway).verify(
                        token, keys: keys, now: now)
                    var event: [String: Any] = [
                        "type": verified.event.type.rawValue, "documented": verified.event.type.isDocumented, "sub": verified.event.subject,
                        "members": JSONCLI.any(verified.event.members),
                    ]
                    if let v = verified.event.eventTime { event["event_time"] = v }
                    if let v = verified.event.email { event["email"] = v }
                    if let v = verified.event.isPrivateEmail { event["is_private_email"] = v }
                    var out: [String: Any] = [
                        "verified": true, "kid": verified.keyID, "aud": verified.audience, "iat": verified.issuedAt,
                        "exp": verified.expiration, "identity": verified.identity, "event": event,
                        "claims": JSONCLI.any(verified.claims.json),
                    ]
                    if let v = verified.tokenID { out["jti"] = v }
                    Output.printJSON(out)
                } catch {
                    CLIFailure(error).report()
                }
            }
        }
    }

    /// Apple's key set from a file or an http(s) URL (default Apple's).
    static func keys(_ jwks: String?) async throws -> JWKS {
        let source = jwks ?? "https://appleid.apple.com/auth/keys"
        guard source.hasPrefix("http://") || source.hasPrefix("https://") else { return try JWKS(parsing: try Input.read(source)) }
        let response = try await URLSessionHTTPTransport().send(
            HTTPRequest(method: "GET", url: source), timeout: 30, maximumResponseSize: 1 << 20)
        guard response.status == 200 else {
            throw CLIFailure(code: "siwa.jwks", message: "\(source) answered HTTP \(response.status)")
        }
        return try JWKS(parsing: response.body)
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
