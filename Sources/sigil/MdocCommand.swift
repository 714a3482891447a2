import ArgumentParser
import Foundation
import SigilCore
import SigilJOSE
import SigilKeys
import SigilMdoc
import SigilX509

/// `sigil mdoc verify|request|open`: ISO/IEC 18013-5 DeviceResponses in person, and the ISO/IEC
/// 18013-7 Annex C request and answer on the web. Element values are personal data: the answer
/// lists each element's namespace, identifier and kind, and prints values only with `--values`;
/// `--explain` never prints one.
struct MdocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc", abstract: "Verify mobile documents (ISO/IEC 18013-5 mdoc responses), in person and on the web.",
        subcommands: [Verify.self, Request.self, Open.self])

    /// The trust, time and output options `verify` and `open` share.
    struct Trust: ParsableArguments {
        @Option(help: "An IACA root certificate to trust (PEM or DER; repeatable, at least one).") var iaca: [String] = []
        @Option(help: "The time the response is judged at, RFC 3339 or unix seconds (default: now).") var at: String?
        @Flag(
            help: "Accept a deviceMac that cannot be checked (no reader private key); the document is reported as not device-authenticated."
        )
        var acceptUnverifiedMac = false
        @Flag(help: "Print each element's value in the answer (personal data: off by default).") var values = false
        @Flag(help: "Print every step, with its clause, to stderr (never an element's value).") var explain = false

        func verifier() throws -> MdocVerifier {
            let roots = try iaca.flatMap { try Input.certificates($0) }
            guard !roots.isEmpty else { throw CLIFailure(code: "usage", message: "give at least one --iaca root") }
            return MdocVerifier(trustedIACARoots: roots, relaxations: acceptUnverifiedMac ? [.acceptUnverifiedDeviceMAC] : [])
        }

        func verify(_ response: [UInt8], transcript: SessionTranscript, readerKey: MdocVerifier.ReaderKey) throws -> Any {
            let verifier = try verifier()
            let time = try Input.time(at, option: "--at") ?? Int64(Date().timeIntervalSince1970)
            let trace = explain ? VerificationTrace() : nil
            do {
                let verified = try verifier.verify(
                    deviceResponse: response, sessionTranscript: transcript, readerKey: readerKey, at: time, trace: trace)
                Output.printTrace(trace, verdict: "VALID")
                return json(verified)
            } catch {
                Output.printTrace(trace, verdict: CLIFailure(error).code)
                throw error
            }
        }

        /// The response as the request document's answer holds it (one JSON form for every door).
        func json(_ response: VerifiedDeviceResponse) -> Any { JSONCLI.any(response.answerJSON(values: values)) }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a DeviceResponse for its session (ProximityReader's responseData); exit 0 valid, 1 refused.",
            discussion: """
                The session transcript is ProximityReader's sessionTranscript (SessionTranscriptBytes or the bare array). \
                The reader key is ephemeralReaderKey (iOS 26.4+) in any form: a private key checks a deviceMac; without one, \
                a deviceMac is refused unless --accept-unverified-mac.
                """)
        @OptionGroup var trust: Trust
        @Option(help: "The session transcript file (CBOR).") var transcript: String
        @Option(help: "The reader's ephemeral key file (raw, x9.63, DER, PEM or COSE_Key).") var readerKey: String?
        @Argument(help: "DeviceResponse file (CBOR), or - for standard input.") var file: String

        func run() {
            reportingErrors {
                let readerKey = try self.readerKey.map { try MdocVerifier.ReaderKey(ephemeralReaderKey: Input.read($0)) } ?? .notHeld
                let answer = try trust.verify(
                    Input.read(file), transcript: SessionTranscript(bytes: Input.read(transcript)), readerKey: readerKey)
                Output.printJSON(answer)
            }
        }
    }

    struct Request: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Build an ISO/IEC 18013-7 Annex C request for the Digital Credentials API; prints it as JSON (keep it to open the answer).")
        @Option(help: "The web origin the page runs at, e.g. https://example.com.") var origin: String
        @Option(help: "The server's HPKE key (P-256, PEM or DER, private or public): the answer is encrypted to it.") var recipientKey:
            String
        @Option(help: "The document type.") var docType = "org.iso.18013.5.1.mDL"
        @Option(help: "An element to ask for, NAMESPACE/IDENTIFIER (repeatable; without a namespace, org.iso.18013.5.1).")
        var element: [String] = []
        @Option(help: "The reader's private key for ReaderAuth (PEM or DER).") var readerKey: String?
        @Option(help: "The reader's certificate for ReaderAuth (PEM or DER; the chain when several).") var readerCert: String?

        func run() {
            reportingErrors {
                let key = try ECKey(loading: Input.read(recipientKey)).publicKey
                var elements: [String: [String: Bool]] = [:]
                for item in element {
                    let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                    let (nameSpace, identifier) = parts.count == 2 ? (parts[0], parts[1]) : ("org.iso.18013.5.1", parts[0])
                    guard !nameSpace.isEmpty, !identifier.isEmpty else {
                        throw CLIFailure(code: "usage", message: "--element is NAMESPACE/IDENTIFIER or IDENTIFIER, both non-empty")
                    }
                    elements[nameSpace, default: [:]][identifier] = false
                }
                var reader: DigitalCredentialsRequest.ReaderAuthentication?
                switch (readerKey, readerCert) {
                case (let keyPath?, let certPath?):
                    guard case .privateKey(let privateKey) = try ECKey(loading: Input.read(keyPath)) else {
                        throw CLIFailure(code: "usage", message: "--reader-key holds no private key")
                    }
                    reader = .init(privateKey: privateKey, certificates: try Input.certificates(certPath))
                case (nil, nil): reader = nil
                default: throw CLIFailure(code: "usage", message: "give both --reader-key and --reader-cert, or neither")
                }
                var generator = SystemRandomNumberGenerator()
                let nonce = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let request = try DigitalCredentialsRequest(
                    documents: [.init(docType: docType, elements: elements)], origin: origin, recipientKey: key, nonce: nonce,
                    readerAuthentication: reader)
                Output.printJSON([
                    "origin": origin, "deviceRequest": Base64URL.encode(request.deviceRequest),
                    "encryptionInfo": Base64URL.encode(request.encryptionInfo), "data": request.data,
                    "sessionTranscript": Output.hex(request.sessionTranscript.bytes),
                ])
            }
        }
    }

    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a wallet's Annex C answer with the request and the server key, then verify it; exit 0 valid, 1 refused.")
        @OptionGroup var trust: Trust
        @Option(help: "The request as `sigil mdoc request` printed it (JSON file).") var request: String
        @Option(help: "The server's private key (P-256, PEM or DER).") var key: String
        @Option(help: "Also write the decrypted DeviceResponse (CBOR) to this file.") var out: String?
        @Argument(help: "The answer: credential.data.response (base64url) or the EncryptedResponse's CBOR, or - for standard input.")
        var file: String

        func run() {
            reportingErrors {
                guard let stored = (try? JSONSerialization.jsonObject(with: Data(Input.read(request)))) as? [String: Any],
                    let origin = stored["origin"] as? String, let deviceRequest = stored["deviceRequest"] as? String,
                    let encryptionInfo = stored["encryptionInfo"] as? String
                else { throw CLIFailure(code: "usage", message: "--request is not a request `sigil mdoc request` printed") }
                let rebuilt = try DigitalCredentialsRequest(
                    deviceRequest: Base64URL.decode(deviceRequest), encryptionInfo: Base64URL.decode(encryptionInfo), origin: origin)
                guard case .privateKey(let privateKey) = try ECKey(loading: Input.read(key)) else {
                    throw CLIFailure(code: "usage", message: "--key holds no private key")
                }
                let answer = try Input.read(file)
                let text = String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                let isText = !text.isEmpty && text.utf8.allSatisfy { $0 < 0x80 && $0 != 0 }
                let response =
                    isText
                    ? try rebuilt.open(response: text, privateKey: privateKey)
                    : try rebuilt.open(encryptedResponse: answer, privateKey: privateKey)
                if let out {
                    // Personal data: readable by its owner only.
                    guard FileManager.default.createFile(atPath: out, contents: Data(response), attributes: [.posixPermissions: 0o600])
                    else {
                        throw CLIFailure(code: "io", message: "cannot write \(out)")
                    }
                }
                Output.printJSON(try trust.verify(response, transcript: rebuilt.sessionTranscript, readerKey: .notHeld))
            }
        }
    }
}
