import ArgumentParser
import Foundation
import SigilASN1
import SigilBase
import SigilCore
import SigilHTTP
import SigilJOSE
import SigilKeys
import SigilTestPKI
import SigilX509

/// `sigil notify …`: a fake App Store for testing a notification receiver without an Apple device.
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Send App Store Server Notifications V2 to a receiver, signed by a test PKI (a fake App Store).",
        subcommands: [TestPKI.self, Send.self])

    struct TestPKI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test-pki",
            abstract: "Make (or reuse) the test PKI `notify send --pki-dir` signs with; the root the receiver must trust out.")
        @Argument(help: "The directory (created with a fresh PKI if it holds none).") var directory: String

        func run() {
            do {
                let signer = try Send.testPKI(in: directory)
                Output.printJSON(["root": signer.rootPath ?? "", "chain": signer.chain.count])
            } catch {
                CLIFailure(error).report()
            }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract:
                "Mint a notification (with a signed transaction and renewal info) and POST it like Apple; the receiver's answer JSON out.",
            discussion: """
                Signed by the test PKI in --pki-dir (made there on first use: root.cer is the root the receiver \
                must be told to trust, e.g. notification-receiver --root-certificate DIR/root.cer — a receiver \
                trusts it only when so configured), or by --key with its --chain (leaf, intermediate, root). \
                A 2xx answer is printed on stdout; any other fails as notify.http<status> with the body.
                """)
        @Option(help: "The receiver's notification URL.") var url: String
        @Option(help: "notificationType.") var type: String = "DID_RENEW"
        @Option(help: "subtype.") var subtype: String?
        @Option(help: "The app's bundle id.") var bundleId: String
        @Option(help: "Sandbox, Production, Xcode.") var environment: String = "Sandbox"
        @Option(help: "The app Apple id (required by receivers of Production data).") var appAppleId: Int64?
        @Option(help: "The transaction's originalTransactionId (default random).") var originalTransactionId: String?
        @Option(help: "The product id.") var productId: String = "com.example.monthly"
        @Option(help: "notificationUUID (default random).") var notificationUuid: String?
        @Option(help: "Directory holding the test PKI (created with a fresh one if empty).") var pkiDir: String?
        @Option(help: "The leaf's private key (.p8 / PEM), instead of --pki-dir.") var key: String?
        @Option(help: "A certificate of the chain, leaf first (repeatable; PEM or DER), with --key.") var chain: [String] = []
        @Option(help: "Seconds before the POST is abandoned.") var timeout: Double = 30

        func run() async {
            do {
                let signer = try self.signer()
                let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
                let uuid = notificationUuid ?? UUID().uuidString.lowercased()
                let original = originalTransactionId ?? "2000000\(Int.random(in: 100_000_000...999_999_999))"
                var data: [(String, JSONValue)] = [
                    ("bundleId", .string(bundleId)), ("bundleVersion", .string("1")), ("environment", .string(environment)),
                ]
                if let appAppleId { data.append(("appAppleId", .int(appAppleId))) }
                if type != "TEST" {
                    let transaction = JSONValue.object([
                        ("originalTransactionId", .string(original)), ("transactionId", .string(original)),
                        ("bundleId", .string(bundleId)), ("productId", .string(productId)), ("purchaseDate", .int(now - 1000)),
                        ("originalPurchaseDate", .int(now - 1000)), ("expiresDate", .int(now + 30 * 86_400_000)), ("quantity", .int(1)),
                        ("type", .string("Auto-Renewable Subscription")), ("inAppOwnershipType", .string("PURCHASED")),
                        ("signedDate", .int(now)), ("environment", .string(environment)), ("transactionReason", .string("PURCHASE")),
                        ("storefront", .string("USA")), ("storefrontId", .string("143441")),
                    ])
                    let renewal = JSONValue.object([
                        ("originalTransactionId", .string(original)), ("autoRenewProductId", .string(productId)),
                        ("productId", .string(productId)), ("autoRenewStatus", .int(1)), ("signedDate", .int(now)),
                        ("environment", .string(environment)), ("recentSubscriptionStartDate", .int(now - 1000)),
                    ])
                    data.append(("signedTransactionInfo", .string(try signer.sign(transaction))))
                    data.append(("signedRenewalInfo", .string(try signer.sign(renewal))))
                    data.append(("status", .int(1)))
                }
                var payload: [(String, JSONValue)] = [
                    ("notificationType", .string(type)), ("notificationUUID", .string(uuid)), ("version", .string("2.0")),
                    ("signedDate", .int(now)), ("data", .object(data)),
                ]
                if let subtype { payload.append(("subtype", .string(subtype))) }
                let signedPayload = try signer.sign(.object(payload))
                let body = JSONValue.object([("signedPayload", .string(signedPayload))]).serialized
                let response = try await URLSessionHTTPTransport().send(
                    HTTPRequest(
                        method: "POST", url: url, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body.utf8)),
                    timeout: timeout, maximumResponseSize: 1 << 20)
                let answer =
                    (try? JSONSerialization.jsonObject(with: Data(response.body))) ?? String(decoding: response.body, as: UTF8.self)
                guard (200..<300).contains(response.status) else {
                    throw CLIFailure(
                        code: "notify.http\(response.status)",
                        message:
                            "the receiver answered HTTP \(response.status): \(String(decoding: response.body.prefix(2000), as: UTF8.self))")
                }
                var out: [String: Any] = [
                    "status": response.status, "answer": answer, "notificationUUID": uuid, "notificationType": type,
                    "environment": environment,
                ]
                if type != "TEST" { out["originalTransactionId"] = original }
                if let subtype { out["subtype"] = subtype }
                if let root = signer.rootPath { out["root"] = root }
                Output.printJSON(out)
            } catch {
                CLIFailure(error).report()
            }
        }

        /// The key and x5c chain to sign with.
        struct Signer {
            let key: ECDSAPrivateKey
            let chain: [[UInt8]]
            let rootPath: String?

            func sign(_ payload: JSONValue) throws -> String {
                try JWS.sign(
                    header: .object([("alg", .string("ES256")), ("x5c", .array(chain.map { .string(Base64.encode($0)) }))]),
                    payload: Array(payload.serialized.utf8), key: key)
            }
        }

        func signer() throws -> Signer {
            switch (pkiDir, key) {
            case (let directory?, nil):
                guard chain.isEmpty else { throw CLIFailure(code: "usage", message: "--chain goes with --key, not --pki-dir") }
                return try Self.testPKI(in: directory)
            case (nil, let keyPath?):
                guard !chain.isEmpty else { throw CLIFailure(code: "usage", message: "--key needs its --chain (leaf first)") }
                guard case .privateKey(let key) = try ECKey(loading: try Input.read(keyPath)) else {
                    throw CLIFailure(code: "usage", message: "\(keyPath) holds a public key, not the leaf's private key")
                }
                return Signer(key: key, chain: try chain.map(Self.certificate), rootPath: nil)
            default:
                throw CLIFailure(code: "usage", message: "give exactly one of --pki-dir and --key")
            }
        }

        /// A certificate file, PEM (its first CERTIFICATE block) or DER, checked to parse.
        static func certificate(_ path: String) throws -> [UInt8] {
            let bytes = try Input.read(path)
            if let text = String(bytes: bytes, encoding: .utf8), text.contains("-----BEGIN") {
                guard let document = try PEMDocument.parseAll(text).first(where: { $0.label == "CERTIFICATE" }) else {
                    throw CLIFailure(code: "usage", message: "\(path) holds no CERTIFICATE block")
                }
                _ = try Certificate(derEncoded: document.derBytes)
                return document.derBytes
            }
            _ = try Certificate(derEncoded: bytes)
            return bytes
        }

        /// The test PKI in `directory` (root.cer, intermediate.cer, leaf.cer, leaf.p8), made on first use.
        static func testPKI(in directory: String) throws -> Signer {
            let files = ["leaf.p8", "leaf.cer", "intermediate.cer", "root.cer"].map { (directory as NSString).appendingPathComponent($0) }
            let manager = FileManager.default
            if !files.allSatisfy({ manager.fileExists(atPath: $0) }) {
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let now = Int64(Date().timeIntervalSince1970)
                let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 365 * 86_400)
                let contents: [[UInt8]] = [
                    Array(pki.leafKey.pkcs8PEM.utf8), pki.leaf.derBytes, pki.intermediate.derBytes, pki.root.derBytes,
                ]
                for (file, bytes) in zip(files, contents) {
                    guard manager.createFile(atPath: file, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
                        throw CLIFailure(code: "notify.pki", message: "cannot write \(file)")
                    }
                }
            }
            guard case .privateKey(let key) = try ECKey(loading: try Input.read(files[0])) else {
                throw CLIFailure(code: "notify.pki", message: "\(files[0]) holds no private key")
            }
            return Signer(key: key, chain: try files.dropFirst().map(certificate), rootPath: files[3])
        }
    }
}
