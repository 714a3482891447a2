import ArgumentParser
import Foundation
import SigilASN1
import SigilApplePKI
import SigilAppleRoots
import SigilBase
import SigilCore
import SigilPKCS7
import SigilReceipts
import SigilX509

struct ReceiptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt", abstract: "Read and verify App Store receipts (PKCS#7) and iOS 6 transaction receipts.",
        subcommands: [Show.self, TransactionID.self, Verify.self, Legacy.self])

    /// A receipt file: base64 (as apps send it; line breaks allowed) or DER/BER.
    static func signedData(_ path: String) throws -> CMSSignedData {
        let bytes = try Input.read(path)
        let compact = Base64.removingWhiteSpace(bytes)
        let der = compact.first == 0x30 ? bytes : ((try? Base64.decode(compact, alphabet: .standard, padding: .optional)) ?? bytes)
        return try CMSSignedData(berEncoded: der)
    }

    static func receipt(_ signed: CMSSignedData) throws -> AppReceipt {
        guard let payload = signed.payload else { throw CLIFailure(code: "pkcs7.malformed", message: "the receipt has no content") }
        return try AppReceipt(payload: payload)
    }

    static func date(_ seconds: Int64?) -> Any { seconds.map(Time.rfc3339) ?? NSNull() }

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
            abstract:
                "Verify an app receipt: signature, signer chain under Apple's receipt profile, environment, bundle id, device hash; exit 0 valid, an invalid receipt is a failure (stderr, exit 1).",
            discussion: """
                The chain is validated at the receipt's creation date unless --at is given, and the signer must be \
                Apple's receipt signer (\(AppleOIDs.appStoreReceiptSigning.dotted) under a WWDR intermediate carrying \
                \(AppleOIDs.wwdrIntermediate.dotted)) unless --any-signer relaxes it (receipts of test PKIs); --relax names an \
                RFC 5280 profile rule not enforced on the chain (the names of `sigil verify` and `sigil x509 verify`; \
                test PKIs without key identifiers need missing-key-identifiers). \
                The receipt type must name an accepted environment: --environment (repeatable), by default Production \
                or Sandbox, and the output says which it was. --bundle-id is enforced, and the device hash (--guid) is \
                computed with it, so another app's receipt from the same device fails (invalidAppIdentifier); without \
                --bundle-id the bundle id is reported, not enforced, and the output says so.

                Xcode StoreKit-testing receipts are signed by Xcode's self-signed StoreKit certificate, never by \
                Apple: verify them with --xcode-certificate StoreKitTestCertificate.cer (Xcode: open the StoreKit \
                configuration, Editor > Save Public Certificate), or, to trust the certificate the receipt itself \
                carries (integrity only: anyone can make such a receipt), --xcode-carried-certificate. Either accepts \
                receipt type Xcode only and applies the relaxation missing-key-identifiers (Xcode's certificate has no \
                subjectKeyIdentifier). `sigil verify --xcode-certificate` does the same for Xcode-signed JWS.

                --format verify-receipt prints the body Apple's verifyReceipt endpoint returns, computed offline, \
                for the endpoint --endpoint names; like Apple's endpoint it checks no bundle id unless --bundle-id \
                is given (then another app's receipt is answered 21003). That body is the answer in Apple's format, \
                printed on stdout whatever its status (exit 1 when the status is not 0).
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
        @Option(help: "Device GUID as hex, to check the receipt's SHA-1 hash (with the --bundle-id when given).") var guid: String?
        @Option(
            help:
                "Expected bundle id, enforced (also in the device hash); without it the bundle id is reported and not checked, and the output says so."
        )
        var bundleId: String?
        @Option(
            help:
                "An accepted environment (repeatable). Default: production and sandbox; xcode with --xcode-certificate or --xcode-carried-certificate."
        )
        var environment: [ReceiptEnvironment] = []
        @Flag(help: "Relaxation: accept any signer that chains to the roots (test PKIs), not only Apple's receipt signer.")
        var anySigner = false
        @Option(name: .customLong("relax"), help: RelaxationName.help("the signer's chain"))
        var relaxations: [RelaxationName] = []
        @Option(
            help:
                "Xcode StoreKit testing: the certificate Xcode signs receipts with (StoreKitTestCertificate.cer, saved from the StoreKit configuration); receipt type Xcode only."
        )
        var xcodeCertificate: String?
        @Flag(
            help:
                "Xcode StoreKit testing: trust the self-signed certificate the receipt carries (integrity only: anyone can make such a receipt); receipt type Xcode only."
        )
        var xcodeCarriedCertificate = false
        @Option(help: "sigil (the verdict) or verify-receipt (Apple's verifyReceipt body).") var format: Format = .sigil
        @Option(help: "With --format verify-receipt: the endpoint the receipt was sent to (production or sandbox).")
        var endpoint: VerifyReceiptEndpoint = .production
        @Flag(help: "Print every verification step, with the spec clause it implements, to stderr.") var explain = false
        @Argument(help: "Receipt file (base64 or DER/BER), or - for standard input.") var file: String

        /// The verifier the options describe: Xcode's certificate (given or, by name, carried), or
        /// the roots (Apple Inc. Root from the roots directory without --root) with the signer
        /// requirement and relaxations; the bundle id enforced or, without --bundle-id, report-only.
        func verifier() throws -> AppReceiptVerifier {
            let identity: ReceiptIdentityCheck = bundleId.map { .enforce(bundleId: $0) } ?? .reportOnly
            if xcodeCertificate != nil || xcodeCarriedCertificate {
                guard xcodeCertificate == nil || !xcodeCarriedCertificate else {
                    throw CLIFailure(code: "usage", message: "give --xcode-certificate or --xcode-carried-certificate, not both")
                }
                guard roots.isEmpty, !anySigner, relaxations.isEmpty, environment.allSatisfy({ $0 == .xcode }) else {
                    throw CLIFailure(
                        code: "usage",
                        message:
                            "Xcode's certificate is the only trust for Xcode receipts: --root, --any-signer, --relax and an --environment other than xcode do not apply"
                    )
                }
                guard let path = xcodeCertificate else { return AppReceiptVerifier(xcode: .carriedByTheData, identity: identity) }
                guard let certificate = try Input.certificates(path).first else {
                    throw CLIFailure(code: "usage", message: "--xcode-certificate \(path) holds no certificate")
                }
                return AppReceiptVerifier(xcode: .given(certificate), identity: identity)
            }
            // Without --root: Apple's receipt root, installed once with `sigil roots install`; a
            // missing one is an error naming the file to get and the command.
            let trusted =
                roots.isEmpty
                ? [try RootsCommand.certificate(AppleRootCertificates.receipts)] : try roots.flatMap { try Input.certificates($0) }
            return try AppReceiptVerifier(
                trustedRoots: trusted, identity: identity,
                environments: environment.isEmpty ? [.production, .sandbox] : Set(environment),
                signerRequirement: anySigner ? .anyCertificateUnderTrustedRoots : .appleReceiptSigner,
                rfc5280Relaxations: Set(relaxations.map(\.relaxation)))
        }

        func run() {
            reportingErrors {
                let verifier = try verifier()
                let bytes = try Input.read(file)
                if format == .verifyReceipt {
                    let body = verifier.verifyReceiptResponse(bytes, sentTo: endpoint, requestTime: Int64(Date().timeIntervalSince1970))
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    print(String(decoding: try encoder.encode(body), as: UTF8.self))
                    if body.status != 0 { Foundation.exit(1) }
                    return
                }
                let time = try Input.time(at, option: "--at")
                var device: [UInt8]?
                if let guid {
                    guard let parsed = Base16.decode(guid) else { throw CLIFailure(code: "usage", message: "--guid must be hex") }
                    device = parsed
                }
                let trace = explain ? VerificationTrace() : nil
                let verified: VerifiedAppReceipt
                do throws(ReceiptError) { verified = try verifier.verify(bytes, at: time, deviceGUID: device, trace: trace) } catch {
                    Output.printTrace(trace, verdict: error.code.rawValue)
                    throw error
                }
                Output.printTrace(trace, verdict: "VALID")
                var out: [String: Any] = [
                    "valid": true, "time": Time.rfc3339(verified.validationTime),
                    "chain": verified.chain.map(\.subject.rfc4514String),
                ]
                if let xcode = verifier.xcodeCertificate {
                    out["trust"] = xcode == .carriedByTheData ? "xcodeCarriedCertificate" : "xcodeCertificate"
                } else if let anchor = verified.chain.last {
                    out["anchor"] = RootsCommand.anchor(
                        anchor, source: roots.isEmpty ? "roots directory (\(AppleRootCertificates.receipts.name))" : "--root")
                }
                if let matches = verified.deviceMatches { out["deviceHashMatches"] = matches }
                var identity: [String: Any] = ["enforced": verified.identity.enforced]
                identity["bundleId"] = verified.identity.bundleId ?? NSNull()
                if !verified.identity.enforced {
                    identity["note"] = "bundle id not enforced: pass --bundle-id to check it (and to compute the device hash with it)"
                }
                out["identity"] = identity
                var environmentRecord: [String: Any] = [
                    "value": verified.identity.environment.rawValue,
                    "accepted": ReceiptEnvironment.allCases.filter(verifier.environments.contains).map(\.rawValue),
                ]
                if environment.isEmpty && verifier.xcodeCertificate == nil {
                    environmentRecord["note"] = "Production or Sandbox accepted: pass --environment to require one"
                }
                out["environment"] = environmentRecord
                Output.printJSON(out)
            }
        }
    }

    struct Legacy: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read an iOS 6-era transaction receipt (base64 old-style plist).")
        @Flag(help: "JSON output (the default).") var json = false
        @Argument(help: "Receipt file, or - for standard input.") var file: String

        func run() {
            reportingErrors {
                let receipt = try LegacyTransactionReceipt(base64: try Input.read(file))
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

/// `--environment production|sandbox|xcode` (any case; Apple's names Production, Sandbox, Xcode too).
extension ReceiptEnvironment: ExpressibleByArgument {
    /// The environment named by `argument`, in any case; nil for another word.
    public init?(argument: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() }) else { return nil }
        self = match
    }

    /// The names `--environment` takes, lowercased, as `--help` lists them.
    public static var allValueStrings: [String] { allCases.map { $0.rawValue.lowercased() } }
}
