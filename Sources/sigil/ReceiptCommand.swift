import ArgumentParser
import Foundation
import SigilASN1
import SigilCore
import SigilPKCS7
import SigilX509

extension CLIFailure {
    init(pkcs7 error: PKCS7Error) {
        self.init(code: "pkcs7." + error.code.rawValue, message: error.description)
    }
}

struct ReceiptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt", abstract: "Read and verify App Store receipts (PKCS#7) and iOS 6 transaction receipts.",
        subcommands: [Show.self, TransactionID.self, Verify.self, Legacy.self])

    /// A receipt file: base64 (as apps send it; line breaks allowed) or DER/BER.
    static func signedData(_ path: String) throws -> SignedData {
        let bytes = try Input.read(path)
        let compact = bytes.filter { ![0x0A, 0x0D, 0x20, 0x09].contains($0) }
        let der = compact.first == 0x30 ? bytes : ((try? Base64.decode(compact, alphabet: .standard, padding: .optional)) ?? bytes)
        do { return try SignedData(berEncoded: der) } catch { throw CLIFailure(pkcs7: error) }
    }

    static func receipt(_ signed: SignedData) throws -> AppReceipt {
        guard let payload = signed.payload else { throw CLIFailure(code: "pkcs7.malformed", message: "the receipt has no content") }
        do { return try AppReceipt(payload: payload) } catch { throw CLIFailure(pkcs7: error) }
    }

    static func date(_ seconds: Int64?) -> Any { seconds.map(X509Command.rfc3339) ?? NSNull() }

    static func json(_ receipt: AppReceipt) -> [String: Any] {
        let known: Set<Int> = [0, 1, 2, 3, 4, 5, 10, 12, 17, 18, 19, 21]
        return [
            "receiptType": receipt.receiptType ?? NSNull(),
            "appItemId": receipt.appItemID ?? NSNull(),
            "bundleId": receipt.bundleID ?? NSNull(),
            "appVersion": receipt.appVersion ?? NSNull(),
            "opaqueValue": receipt.opaqueValue.map(Output.hex) ?? NSNull(),
            "sha1Hash": receipt.sha1Hash.map(Output.hex) ?? NSNull(),
            "ageRating": receipt.ageRating ?? NSNull(),
            "creationDate": date(receipt.creationDate),
            "originalPurchaseDate": date(receipt.originalPurchaseDate),
            "originalApplicationVersion": receipt.originalApplicationVersion ?? NSNull(),
            "expirationDate": date(receipt.expirationDate),
            "inApp": receipt.inAppPurchases.map { p -> [String: Any] in
                [
                    "quantity": p.quantity ?? NSNull(), "productId": p.productID ?? NSNull(), "transactionId": p.transactionID ?? NSNull(),
                    "originalTransactionId": p.originalTransactionID ?? NSNull(), "purchaseDate": date(p.purchaseDate),
                    "originalPurchaseDate": date(p.originalPurchaseDate), "expiresDate": date(p.subscriptionExpirationDate),
                    "cancellationDate": date(p.cancellationDate), "webOrderLineItemId": p.webOrderLineItemID ?? NSNull(),
                    "isTrialPeriod": p.isTrialPeriod ?? NSNull(), "isInIntroOfferPeriod": p.isInIntroOfferPeriod ?? NSNull(),
                    "promotionalOfferId": p.promotionalOfferID ?? NSNull(),
                ]
            },
            "unknownAttributes": receipt.attributes.filter { !known.contains($0.type) }.map {
                ["type": $0.type, "version": $0.version, "value": Output.hex($0.value)] as [String: Any]
            },
        ]
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every field and in-app record of an app receipt (base64 or DER).")
        @Flag(help: "JSON output (the default).") var json = false
        @Argument(help: "Receipt file, or - for standard input.") var file: String

        func run() {
            reportingErrors {
                let signed = try ReceiptCommand.signedData(file)
                var out = ReceiptCommand.json(try ReceiptCommand.receipt(signed))
                out["signerCertificates"] = signed.certificates.map(\.subject.rfc4514String)
                Output.printJSON(out)
            }
        }
    }

    struct TransactionID: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "transaction-id",
            abstract:
                "The first in-app record's transaction id (Apple's Python/Java/Node libraries); --last for Apple's Swift library's choice.")
        @Flag(help: "The last in-app record's id instead.") var last = false
        @Argument(help: "Receipt file, or - for standard input.") var file: String

        func run() {
            reportingErrors {
                let receipt = try ReceiptCommand.receipt(try ReceiptCommand.signedData(file))
                let id: Any = receipt.transactionID(last ? .last : .first) ?? NSNull()
                Output.printJSON(
                    [
                        "transactionId": id,
                        "inAppCount": receipt.inAppPurchases.count,
                    ] as [String: Any])
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify the receipt's signature and signer chain; JSON verdict, exit 0 valid, 1 invalid.")
        @Option(name: .customLong("root"), help: "A trusted root (repeatable).") var roots: [String] = []
        @Option(help: "Validation time, RFC 3339 or unix seconds (default: the receipt's creation date).") var at: String?
        @Option(help: "Device GUID as hex, to check the receipt's SHA-1 hash.") var guid: String?
        @Flag(help: "Apple's receipt policy (signer → WWDR intermediate → root with Apple's OIDs).") var applePolicy = false
        @Flag(help: "Print every verification step, with the spec clause it implements, to stderr.") var explain = false
        @Argument(help: "Receipt file, or - for standard input.") var file: String

        func run() {
            reportingErrors {
                guard !roots.isEmpty else { throw CLIFailure(code: "usage", message: "at least one --root is needed") }
                let trusted = try roots.flatMap { try X509Command.load($0) }
                let signed = try ReceiptCommand.signedData(file)
                let receipt = try? ReceiptCommand.receipt(signed)
                var time = receipt?.creationDate ?? Int64(Date().timeIntervalSince1970)
                if let at {
                    guard let parsed = X509Command.parseTime(at) else {
                        throw CLIFailure(code: "usage", message: "--at must be RFC 3339 or unix seconds")
                    }
                    time = parsed
                }
                let policies: [any CertificatePolicy] =
                    applePolicy ? [RFC5280Policy(), MarkerExtensionPolicy.appleReceipt] : [RFC5280Policy()]
                var out: [String: Any] = ["time": X509Command.rfc3339(time)]
                var valid = true
                var steps: [SignedDataVerifier.Step] = []
                if let receipt {
                    steps.append(
                        .init(
                            clause: "Apple: receipt fields (ReceiptAttribute SET, BER)", check: "payload", passed: true,
                            detail: "bundle \(receipt.bundleID ?? "-"), version \(receipt.appVersion ?? "-"), created "
                                + (receipt.creationDate.map(X509Command.rfc3339) ?? "-")
                                + ", \(receipt.inAppPurchases.count) in-app record(s)"))
                } else {
                    steps.append(
                        .init(
                            clause: "Apple: receipt fields", check: "payload", passed: false, detail: "the content is not a receipt payload"
                        ))
                }
                steps.append(
                    .init(
                        clause: "RFC 5280 §6.1.1 (validation time)", check: "", passed: nil,
                        detail:
                            "\(X509Command.rfc3339(time)) — \(at != nil ? "--at" : receipt?.creationDate != nil ? "the receipt's creation date" : "now")"
                    ))
                do {
                    let verified = try SignedDataVerifier(trustedRoots: trusted, policies: policies).verify(signed, at: time) {
                        steps.append($0)
                    }
                    out["chain"] = verified.chain.map(\.subject.rfc4514String)
                } catch let error as PKCS7Error {
                    valid = false
                    out["error"] = error.code.rawValue
                    out["reason"] = error.reason
                }
                if let guid {
                    guard let bytes = Output.unhex(guid) else { throw CLIFailure(code: "usage", message: "--guid must be hex") }
                    let matches = receipt?.matchesDevice(guid: bytes) ?? false
                    out["deviceHashMatches"] = matches
                    steps.append(
                        .init(
                            clause: "Apple: receipt validation on the device",
                            check: "SHA-1(GUID ‖ opaque value ‖ bundle id) equals field 5",
                            passed: matches, detail: matches ? "matches this device" : "does not match: another device, or a copied receipt"
                        ))
                    if !matches { valid = false }
                }
                if explain {
                    var lines = Output.stepLines(steps.map { ($0.passed, $0.check, $0.clause, $0.detail) })
                    lines.append("verdict: \(valid ? "VALID" : (out["error"] as? String ?? "INVALID"))")
                    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
                }
                out["valid"] = valid
                Output.printJSON(out)
                if !valid { Foundation.exit(1) }
            }
        }
    }

    struct Legacy: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read an iOS 6-era transaction receipt (base64 old-style plist).")
        @Flag(help: "JSON output (the default).") var json = false
        @Argument(help: "Receipt file, or - for standard input.") var file: String

        func run() {
            reportingErrors {
                let receipt: LegacyTransactionReceipt
                do { receipt = try LegacyTransactionReceipt(base64: try Input.read(file)) } catch let error as PKCS7Error {
                    throw CLIFailure(pkcs7: error)
                }
                var purchase: [String: Any] = [:]
                for (key, value) in receipt.purchaseInfo { purchase[key] = value }
                var out: [String: Any] = [
                    "transactionId": receipt.transactionID ?? NSNull(), "environment": receipt.environment ?? "Production",
                    "purchaseInfo": purchase,
                ]
                if let blob = receipt.signature {
                    out["signature"] =
                        [
                            "version": Int(blob.version), "signatureBytes": blob.signature.count,
                            "certificate": blob.certificate?.subject.rfc4514String ?? NSNull(),
                            "certificateError": blob.certificateError ?? NSNull(),
                        ] as [String: Any]
                }
                Output.printJSON(out)
            }
        }
    }
}
