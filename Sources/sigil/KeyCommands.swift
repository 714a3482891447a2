import ArgumentParser
import Foundation
import SigilCore
import SigilKeys

extension ECCurve: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "p256", "p-256", "prime256v1", "secp256r1": self = .p256
        case "p384", "p-384", "secp384r1": self = .p384
        default: return nil
        }
    }
}

extension HashAlgorithm: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased().replacingOccurrences(of: "-", with: "") {
        case "sha1": self = .sha1
        case "sha256": self = .sha256
        case "sha384": self = .sha384
        case "sha512": self = .sha512
        default: return nil
        }
    }
}

enum Files {
    static func write(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CLIFailure(code: "io.write", message: "cannot write \(path)")
        }
    }

    static func loadKey(_ path: String) throws -> ECKey {
        try ECKey(loading: Input.read(path))
    }
}

struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Generate and inspect EC keys (P-256, P-384).",
        subcommands: [Generate.self, Show.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate a private key; PKCS#8 PEM on stdout (the .p8 format) unless told otherwise.")

        @Option(help: "p256 or p384.") var curve: ECCurve = .p256
        @Option(help: "pkcs8 or sec1.") var format: String = "pkcs8"
        @Flag(help: "Write DER instead of PEM (needs --out).") var der = false
        @Option(help: "Write to this file instead of stdout.") var out: String?

        func run() {
            reportingErrors {
                let key = ECDSAPrivateKey.generate(curve: curve)
                guard format == "pkcs8" || format == "sec1" else {
                    throw CLIFailure(code: "usage", message: "--format is pkcs8 or sec1")
                }
                let derBytes = format == "pkcs8" ? key.pkcs8DER : key.sec1DER
                let pem = format == "pkcs8" ? key.pkcs8PEM : key.sec1PEM
                if let out {
                    try Files.write(der ? derBytes : Array(pem.utf8), to: out)
                    Output.printJSON([
                        "curve": curve.rawValue, "format": format, "encoding": der ? "DER" : "PEM", "file": out,
                        "publicKey": Output.hex(key.publicKey.uncompressedRepresentation),
                    ])
                } else {
                    guard !der else { throw CLIFailure(code: "usage", message: "--der needs --out") }
                    print(pem, terminator: "")
                }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe a key file (PEM or DER, private or public) as JSON; never prints the secret.")

        @Argument(help: "Key file, or - for standard input.") var key: String

        func run() {
            reportingErrors {
                let loaded = try Files.loadKey(key)
                let publicKey = loaded.publicKey
                var kind = "public"
                if case .privateKey = loaded { kind = "private" }
                Output.printJSON([
                    "type": kind,
                    "curve": publicKey.curve.rawValue,
                    "x": Output.hex(publicKey.x),
                    "y": Output.hex(publicKey.y),
                    "uncompressed": Output.hex(publicKey.uncompressedRepresentation),
                    "compressed": Output.hex(publicKey.compressedRepresentation),
                    "spkiDERBase64": Base64Output.encode(publicKey.spkiDER),
                    "spkiPEM": publicKey.pemRepresentation,
                ])
            }
        }
    }
}

enum Base64Output {
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}

struct SignatureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sig", abstract: "ECDSA signatures (RFC 6979 deterministic signing, FIPS 186-5 verification).",
        subcommands: [Sign.self, Verify.self])

    enum Format: String, ExpressibleByArgument { case der, raw }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a file; JSON with the signature on stdout (and the bytes in --out).")

        @Option(help: "Private key file (PEM or DER: PKCS#8 or SEC 1).") var key: String
        @Option(help: "sha256, sha384 or sha512 (default: the curve's, SHA-256 for P-256, SHA-384 for P-384).") var hash: HashAlgorithm?
        @Option(help: "der (ECDSA-Sig-Value) or raw (r ‖ s, JOSE/P1363).") var format: Format = .der
        @Option(help: "Also write the signature bytes to this file.") var out: String?
        @Argument(help: "File to sign, or - for standard input.") var file: String = "-"

        func run() {
            reportingErrors {
                let loaded = try Files.loadKey(key)
                guard case .privateKey(let privateKey) = loaded else {
                    throw CLIFailure(code: "usage", message: "\(key) is a public key; signing needs a private key")
                }
                let hash = hash ?? privateKey.curve.defaultHash
                let signature = privateKey.signature(for: try Input.read(file), hash: hash)
                let bytes = format == .der ? signature.derRepresentation : signature.rawRepresentation
                if let out { try Files.write(bytes, to: out) }
                Output.printJSON([
                    "curve": privateKey.curve.rawValue, "hash": hash.rawValue, "format": format.rawValue,
                    "signature": Output.hex(bytes), "signatureBase64": Base64Output.encode(bytes),
                ])
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Verify a signature file over a file: {valid: true} on stdout, exit 0; one that does not verify is a failure (signature.invalid)."
        )

        @Option(help: "Key file (PEM or DER, private or public).") var key: String
        @Option(help: "Signature file (binary DER or raw, per --format).") var signature: String
        @Option(help: "sha256, sha384 or sha512 (default: the curve's).") var hash: HashAlgorithm?
        @Option(help: "der or raw.") var format: Format = .der
        @Argument(help: "Signed file, or - for standard input.") var file: String = "-"

        func run() {
            reportingErrors {
                let publicKey = try Files.loadKey(key).publicKey
                let hash = hash ?? publicKey.curve.defaultHash
                let bytes = try Input.read(signature)
                // A signature that does not parse fails with its own error (keys.…, core.…).
                let parsed =
                    format == .der
                    ? try ECDSASignature(derEncoded: bytes, curve: publicKey.curve)
                    : try ECDSASignature(rawRepresentation: bytes, curve: publicKey.curve)
                guard publicKey.isValidSignatureVartime(parsed, for: try Input.read(file), hash: hash) else {
                    throw CLIFailure(
                        code: "signature.invalid",
                        message: "the signature does not verify (\(publicKey.curve.rawValue), \(hash.rawValue), \(format.rawValue))")
                }
                Output.printJSON([
                    "valid": true, "curve": publicKey.curve.rawValue, "hash": hash.rawValue, "format": format.rawValue,
                ])
            }
        }
    }
}
