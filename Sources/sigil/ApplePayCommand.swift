import ArgumentParser
import Foundation
import SigilApplePay
import SigilX509

/// `sigil applepay verify|decrypt`: one call into SigilApplePay each; refusals through the CLI's
/// one error mapping (`applepay.<code>`, the step and clause in the message). Nothing here prints
/// card data except `decrypt`'s answer on stdout.
struct ApplePayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "applepay", abstract: "Verify and decrypt Apple Pay payment tokens.", subcommands: [Verify.self, Decrypt.self])

    /// What both subcommands share: the token, the roots, the time, the explanation.
    struct Common: ParsableArguments {
        @Option(help: "A root to trust instead of Apple Root CA - G3 (PEM or DER; repeatable), e.g. a test PKI's.")
        var root: [String] = []
        @Option(help: "The time the token is judged at, RFC 3339 or unix seconds (default: now); for a stored token, when it was received.")
        var at: String?
        @Option(help: "How far the signing time may be from --at, in seconds.") var tolerance: Int64 = 300
        @Flag(help: "Print every step, with its clause, to stderr (never card data).") var explain = false
        @Argument(help: "Token file (the paymentData JSON, or a whole PKPaymentToken), or - for standard input.") var file: String

        func verifier() throws -> PaymentTokenVerifier {
            if root.isEmpty { return try PaymentTokenVerifier(signingTimeTolerance: tolerance) }
            let roots = try root.flatMap { try Input.certificates($0) }
            guard !roots.isEmpty else { throw CLIFailure(code: "usage", message: "no certificate in --root") }
            return try PaymentTokenVerifier(trustedRoots: roots, signingTimeTolerance: tolerance)
        }

        func time() throws -> Int64 { try Input.time(at, option: "--at") ?? Int64(Date().timeIntervalSince1970) }

        /// Verifies (and, with `then`, continues) under one trace, printed with the verdict.
        func run<T>(_ then: (PaymentToken, PaymentTokenVerifier.Verified, VerificationTrace?) throws -> T) throws -> T {
            let verifier = try verifier()
            let time = try time()
            let token = try PaymentToken(json: Input.read(file))
            let trace = explain ? VerificationTrace() : nil
            do {
                let verified = try verifier.verify(token, at: time, trace: trace)
                let result = try then(token, verified, trace)
                Output.printTrace(trace, verdict: "VALID")
                return result
            } catch {
                Output.printTrace(trace, verdict: CLIFailure(error).code)
                throw error
            }
        }

        static func json(_ token: PaymentToken, _ verified: PaymentTokenVerifier.Verified) -> [String: Any] {
            [
                "version": token.version.rawValue, "signingTime": Time.rfc3339(verified.signingTime),
                "transactionId": Output.hex(token.transactionId), "replayKey": token.replayKey,
                "publicKeyHash": Data(token.publicKeyHash).base64EncodedString(),
                "applicationData": token.applicationData.map(Output.hex) ?? NSNull(),
                "chain": verified.chain.map(\.subject.rfc4514String),
            ]
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a token's Apple signature, chain and signing time; exit 0 valid, 1 refused.")
        @OptionGroup var common: Common

        func run() {
            reportingErrors {
                let answer = try common.run { token, verified, _ in Common.json(token, verified) }
                Output.printJSON(answer)
            }
        }
    }

    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a token, then decrypt it with the merchant key; prints the payment data as JSON.",
            discussion: """
                The merchant identifier hash comes from --merchant-cert (its merchant identifier extension) or, \
                when only the identifier is at hand, from --merchant-id. The token's publicKeyHash must name the key.
                """)
        @OptionGroup var common: Common
        @Option(help: "The merchant's private key (PEM or DER: SEC 1, PKCS#1 or PKCS#8).") var merchantKey: String
        @Option(help: "The merchant's payment-processing certificate (PEM or DER).") var merchantCert: String?
        @Option(help: "The merchant identifier (merchant.com.example), instead of the certificate.") var merchantId: String?

        func run() {
            reportingErrors {
                let key: MerchantKey
                switch (merchantCert, merchantId) {
                case (let path?, nil):
                    guard let certificate = try Input.certificates(path).first else {
                        throw CLIFailure(code: "usage", message: "no certificate in \(path)")
                    }
                    key = try MerchantKey(privateKey: Input.read(merchantKey), certificate: certificate)
                case (nil, let identifier?):
                    key = try MerchantKey(privateKey: Input.read(merchantKey), merchantIdentifier: identifier)
                default:
                    throw CLIFailure(code: "usage", message: "give exactly one of --merchant-cert and --merchant-id")
                }
                let answer = try common.run { token, verified, trace in
                    let payment = try PaymentTokenDecryptor(merchantKeys: [key]).decrypt(token, trace: trace)
                    var json = Common.json(token, verified)
                    json["payment"] = JSONCLI.any(bytes: payment.plaintext)
                    return json
                }
                Output.printJSON(answer)
            }
        }
    }
}
