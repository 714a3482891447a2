import ArgumentParser
import Foundation
import SigilASN1
import SigilAppleRoots
import SigilCore
import SigilPKCS7
import SigilX509

struct ReceiptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt", abstract: "Read and verify App Store receipts (PKCS#7) and iOS 6 transaction receipts.",
        subcommands: [Show.self, TransactionID.self, Verify.self, Legacy.self])

    /// A receipt file: base64 (as apps send it; line breaks allowed) or DER/BER.
    static func signedData(_ path: String) throws -> SignedData {
        let bytes = try Input.read(path)
        let compact = bytes.filter { ![0x0A, 0x0D, 0x20, 0x09].contains($0) }
        let der = compact.first == 0x30 ? bytes : ((try? Base64.decode(compact, alphabet: .standard, padding: .optional)) ?? bytes)
        do { return try SignedData(berEncoded: der) } catch { throw CLIFailure(error) }
    }

    static func receipt(_ signed: SignedData) throws -> AppReceipt {
        guard let payload = signed.payload else { throw CLIFailure(code: "pkcs7.malformed", message: "the receipt has no content") }
        do { return try AppReceipt(payload: payload) } catch { throw CLIFailure(error) }
    }

    static func date(_ seconds: Int64?) -> Any { seconds.map(X509Command.rfc3339) ?? NSNull() }

    static func json(_ receipt: AppReceipt) -> [String: Any] {
        let known = Set(ReceiptFieldType.receiptFields.map(\.rawValue))
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
                    "cancellationReason": p.cancellationReason ?? NSNull(),
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
            abstract: "Verify an app receipt: signature, signer chain under Apple's receipt profile, device hash; exit 0 valid, 1 invalid.",
            discussion: """
                The chain is validated at the receipt's creation date unless --at is given, and the signer must be \
                Apple's receipt signer (1.2.840.113635.100.6.11.1 under a WWDR intermediate carrying \
                1.2.840.113635.100.6.2.1) unless --any-signer relaxes it (Xcode StoreKit-testing receipts). \
                --format verify-receipt prints the body Apple's verifyReceipt endpoint returns, computed offline, \
                for the endpoint --endpoint names.
                """)
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case sigil
            case verifyReceipt = "verify-receipt"
        }
        @Option(
            name: .customLong("root"),
            help: "A trusted root instead of Apple Inc. Root Certificate from the roots directory (`sigil roots`; repeatable).")
        var roots: [String] = []
        @Option(help: "Validation time, RFC 3339 or unix seconds (default: the receipt's creation date).") var at: String?
        @Option(help: "Device GUID as hex, to check the receipt's SHA-1 hash.") var guid: String?
        @Flag(help: "Relaxation: accept any signer that chains to the roots (Xcode StoreKit-testing receipts), not only Apple's.")
        var anySigner = false
        @Option(help: "sigil (the verdict) or verify-receipt (Apple's verifyReceipt body).") var format: Format = .sigil
        @Option(help: "With --format verify-receipt: the endpoint the receipt was sent to (production or sandbox).")
        var endpoint: VerifyReceiptEndpoint = .production
        @Flag(help: "Print every verification step, with the spec clause it implements, to stderr.") var explain = false
        @Argument(help: "Receipt file (base64 or DER/BER), or - for standard input.") var file: String

        func run() {
            reportingErrors {
                // Without --root: Apple's receipt root, installed once with `sigil roots install`; a
                // missing one is an error naming the file to get and the command.
                let trusted =
                    roots.isEmpty
                    ? [try RootsCommand.certificate(AppleRootCertificates.receipts)] : try roots.flatMap { try X509Command.load($0) }
                let verifier = AppReceiptVerifier(
                    trustedRoots: trusted,
                    signerRequirement: anySigner ? .anyCertificateUnderTrustedRoots : .appleReceiptSigner)
                let bytes = try Input.read(file)
                if format == .verifyReceipt {
                    let body = verifier.verifyReceiptResponse(bytes, sentTo: endpoint, requestTime: Int64(Date().timeIntervalSince1970))
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    print(String(decoding: try encoder.encode(body), as: UTF8.self))
                    if body.status != 0 { Foundation.exit(1) }
                    return
                }
                var time: Int64?
                if let at {
                    guard let parsed = X509Command.parseTime(at) else {
                        throw CLIFailure(code: "usage", message: "--at must be RFC 3339 or unix seconds")
                    }
                    time = parsed
                }
                var device: [UInt8]?
                if let guid {
                    guard let parsed = Output.unhex(guid) else { throw CLIFailure(code: "usage", message: "--guid must be hex") }
                    device = parsed
                }
                let trace = explain ? VerificationTrace() : nil
                var out: [String: Any] = [:]
                var verdict = "VALID"
                do {
                    let verified = try verifier.verify(bytes, at: time, deviceGUID: device, trace: trace)
                    out = [
                        "valid": true, "time": X509Command.rfc3339(verified.validationTime),
                        "chain": verified.chain.map(\.subject.rfc4514String),
                    ]
                    if let anchor = verified.chain.last {
                        out["anchor"] = RootsCommand.anchor(
                            anchor, source: roots.isEmpty ? "roots directory (\(AppleRootCertificates.receipts.name))" : "--root")
                    }
                    if let matches = verified.deviceMatches { out["deviceHashMatches"] = matches }
                } catch let error as PKCS7Error {
                    verdict = error.code.rawValue
                    out = ["valid": false, "error": error.code.rawValue, "reason": error.reason]
                    if !error.failures.isEmpty { out["failures"] = error.failures.map { ["reason": $0.description, "rule": $0.rule] } }
                    if error.code == .deviceMismatch { out["deviceHashMatches"] = false }
                }
                if let trace {
                    let lines = Output.stepLines(
                        trace.steps.map { ($0.verdict == .pass ? true : $0.verdict == .fail ? false : nil, $0.check, $0.clause, $0.detail) }
                    )
                    FileHandle.standardError.write(Data(((lines + ["verdict: \(verdict)"]).joined(separator: "\n") + "\n").utf8))
                }
                Output.printJSON(out)
                if verdict != "VALID" { Foundation.exit(1) }
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
                    throw CLIFailure(error)
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

extension VerifyReceiptEndpoint: ExpressibleByArgument {}
