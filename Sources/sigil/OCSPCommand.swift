import ArgumentParser
import Foundation
import SigilCore
import SigilHTTP
import SigilOCSP
import SigilX509

struct OCSPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocsp", abstract: "Build OCSP requests, read responses, check revocation online.",
        subcommands: [Request.self, Show.self, Check.self])

    static func single(_ path: String) throws -> Certificate {
        guard let first = try Input.certificates(path).first else { throw CLIFailure(code: "usage", message: "no certificate in \(path)") }
        return first
    }

    static func statusJSON(_ status: SingleResponse.CertStatus) -> [String: Any] {
        switch status {
        case .good: return ["status": "good"]
        case .unknown: return ["status": "unknown"]
        case .revoked(let time, let reason):
            var out: [String: Any] = ["status": "revoked", "revocationTime": Time.rfc3339(time)]
            if let reason {
                out["reason"] = reason
                out["reasonName"] = reasonName(reason)
            }
            return out
        }
    }

    /// CRLReason names (RFC 5280 §5.3.1).
    static func reasonName(_ code: Int) -> String {
        [
            "unspecified", "keyCompromise", "cACompromise", "affiliationChanged", "superseded", "cessationOfOperation",
            "certificateHold", "7", "removeFromCRL", "privilegeWithdrawn", "aACompromise",
        ][min(max(code, 0), 10)]
    }

    struct Request: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a DER OCSP request (RFC 6960) for a certificate.")
        @Option(help: "The certificate to ask about.") var cert: String
        @Option(help: "Its issuer.") var issuer: String
        @Flag(help: "CertID hashes with SHA-256 (default SHA-1).") var sha256 = false
        @Flag(help: "Leave out the nonce.") var noNonce = false
        @Flag(help: "Print base64 instead of writing DER.") var base64 = false
        @Option(help: "Write the DER here.") var out: String?

        func run() {
            reportingErrors {
                var random = SystemRandomNumberGenerator()
                let request = OCSPRequest.forCertificate(
                    try OCSPCommand.single(cert), issuer: try OCSPCommand.single(issuer),
                    hash: sha256 ? .sha256 : .sha1, withNonce: !noNonce, using: &random)
                let der = request.derRepresentation
                if let out { try Files.write(der, to: out) }
                let nonce: Any = request.nonce.map { Output.hex($0) } ?? NSNull()
                if base64 || out == nil {
                    Output.printJSON(["request": Data(der).base64EncodedString(), "nonce": nonce])
                } else {
                    Output.printJSON(["file": out ?? "", "bytes": der.count, "nonce": nonce])
                }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every field of a DER OCSP response.")
        @Flag(help: "JSON output (the default; kept for symmetry with x509 show).") var json = false
        @Argument(help: "Response file, or - for standard input.") var response: String

        func run() {
            reportingErrors {
                let parsed = try OCSPResponse(derEncoded: try Input.read(response))
                var out: [String: Any] = ["responseStatus": parsed.status.description]
                if let basic = parsed.basic {
                    switch basic.responderID {
                    case .byName(let name): out["responderID"] = ["byName": name.rfc4514String]
                    case .byKey(let hash): out["responderID"] = ["byKey": Output.hex(hash)]
                    }
                    out["producedAt"] = Time.rfc3339(basic.producedAt)
                    out["signatureAlgorithm"] = basic.signatureAlgorithm.description
                    out["nonce"] = basic.nonce.map(Output.hex) ?? NSNull()
                    out["certificates"] = basic.certificates.map(\.subject.rfc4514String)
                    out["responses"] = basic.responses.map { single -> [String: Any] in
                        var entry = OCSPCommand.statusJSON(single.status)
                        entry["certID"] = [
                            "hashAlgorithm": single.certID.hashAlgorithm?.rawValue
                                ?? single.certID.hashAlgorithmIdentifier.algorithm.dotted,
                            "issuerNameHash": Output.hex(single.certID.issuerNameHash),
                            "issuerKeyHash": Output.hex(single.certID.issuerKeyHash),
                            "serialNumber": Output.hex(single.certID.serialNumber),
                        ]
                        if single.certID.hashAlgorithm == nil {
                            entry["certIDNote"] =
                                "unknown hash algorithm \(single.certID.hashAlgorithmIdentifier.algorithm.dotted): this CertID matches no certificate"
                        }
                        entry["thisUpdate"] = Time.rfc3339(single.thisUpdate)
                        entry["nextUpdate"] = single.nextUpdate.map(Time.rfc3339) ?? NSNull()
                        return entry
                    }
                }
                Output.printJSON(out)
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Ask the certificate's OCSP responder and verify the answer: the status on stdout, exit 0 good, 1 revoked or unknown; a failure on stderr, exit 2."
        )
        @Option(help: "The certificate to check.") var cert: String
        @Option(help: "Its issuer.") var issuer: String
        @Option(help: "Responder URL (default: from the certificate's authorityInfoAccess).") var url: String?
        @Flag(help: "CertID hashes with SHA-256 (default SHA-1).") var sha256 = false
        @Option(help: "Seconds before giving up.") var timeout: Double = 10

        func run() async {
            do {
                let certificate = try OCSPCommand.single(cert)
                let issuerCertificate = try OCSPCommand.single(issuer)
                let checker = OCSPRevocationChecker(transport: URLSessionOCSPTransport(), hash: sha256 ? .sha256 : .sha1, timeout: timeout)
                let result = try await checker.status(
                    of: certificate, issuer: issuerCertificate, at: Int64(Date().timeIntervalSince1970), url: url)
                var out = OCSPCommand.statusJSON(result.status)
                out["thisUpdate"] = Time.rfc3339(result.thisUpdate)
                out["nextUpdate"] = result.nextUpdate.map(Time.rfc3339) ?? NSNull()
                out["signer"] = result.signer.subject.rfc4514String
                // The status is the answer, revoked or not: stdout, with the exit code saying which.
                Output.printJSON(out)
                if case .good = result.status { return }
                Foundation.exit(1)
            } catch let error as OCSPError where error.code == .retryable {
                CLIFailure(error, hint: "the responder could not be reached or answered too late: try again later").withExitCode(2).report()
            } catch {
                CLIFailure(error).withExitCode(2).report()
            }
        }
    }
}
