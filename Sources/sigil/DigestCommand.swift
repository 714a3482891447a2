import ArgumentParser
import SigilBase
import SigilCore

struct DigestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digest",
        abstract: "Hash (or HMAC) a file with SHA-1, SHA-256, SHA-384 or SHA-512; JSON out.")

    enum Algorithm: String, ExpressibleByArgument, CaseIterable {
        case sha1, sha256, sha384, sha512
    }

    @Option(name: .shortAndLong, help: "sha1, sha256, sha384 or sha512.")
    var algorithm: Algorithm = .sha256

    @Option(name: .long, help: "Compute HMAC with this key (hex) instead of a plain digest.")
    var hmacKeyHex: String?

    @Argument(help: "File to hash, or - for standard input.")
    var file: String = "-"

    func run() {
        reportingErrors {
            let data = try Input.read(file)
            var output: [String: Any] = ["algorithm": algorithm.rawValue, "bytes": data.count]
            if let hmacKeyHex {
                guard let key = Base16.decode(hmacKeyHex) else {
                    throw CLIFailure(code: "usage", message: "--hmac-key-hex needs an even number of hex digits")
                }
                output["hmac"] = Output.hex(mac(key: key, data))
            } else {
                output["digest"] = Output.hex(hash(data))
            }
            Output.printJSON(output)
        }
    }

    private func hash(_ data: [UInt8]) -> [UInt8] {
        switch algorithm {
        case .sha1: SHA1.hash(data)
        case .sha256: SHA256.hash(data)
        case .sha384: SHA384.hash(data)
        case .sha512: SHA512.hash(data)
        }
    }

    private func mac(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        switch algorithm {
        case .sha1: HMAC<SHA1>.authenticationCode(key: key, message: data)
        case .sha256: HMAC<SHA256>.authenticationCode(key: key, message: data)
        case .sha384: HMAC<SHA384>.authenticationCode(key: key, message: data)
        case .sha512: HMAC<SHA512>.authenticationCode(key: key, message: data)
        }
    }
}
