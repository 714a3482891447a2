import ArgumentParser
import Foundation
import SigilApplePKI
import SigilAppleRoots
import SigilCore
import SigilX509

/// `sigil roots`: the Apple roots Sigil trusts for each job, and their installation.
struct RootsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roots",
        abstract: "List Apple's roots Sigil trusts for each job, or install one from a file Apple publishes.",
        discussion: """
            Apple Root CA - G3 (App Store signed data) is built in. Others are read from the roots directory: SIGIL_ROOTS, \
            else $XDG_DATA_HOME/sigil/roots, else ~/.local/share/sigil/roots. `sigil roots install FILE` copies a file there \
            only when its SHA-256 is the fingerprint Apple publishes for one of these roots. Download the files from \
            https://www.apple.com/certificateauthority/.
            """,
        subcommands: [List.self, Install.self],
        defaultSubcommand: List.self)

    /// The roots directory for this process's environment.
    static var directory: String? { AppleRootCertificates.directory(environment: ProcessInfo.processInfo.environment) }

    /// `root` as a certificate, built in or installed; a missing root is an error that says which
    /// file to get and how to install it.
    static func certificate(_ root: AppleRootCertificate) throws -> Certificate {
        try AppleRootCertificates.certificate(root, directory: directory)
    }

    /// What a JSON report says about the root that anchored a chain: Apple's root by name when
    /// the anchor is one, with where it came from.
    static func anchor(_ certificate: Certificate, source: String) -> [String: Any] {
        var out: [String: Any] = [
            "subject": certificate.subject.rfc4514String, "sha256": Output.hex(SHA256.hash(certificate.derBytes)), "source": source,
        ]
        if let known = AppleRootCertificates.identify(certificate.derBytes) { out["appleRoot"] = known.name }
        return out
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Each root: name, job, fingerprint, built in or installed or missing.")

        func run() {
            reportingErrors {
                let directory = RootsCommand.directory
                let roots: [[String: Any]] = AppleRootCertificates.all.map { root in
                    var out: [String: Any] = [
                        "name": root.name, "file": root.fileName, "job": root.job, "sha256": root.fingerprintText,
                        "builtIn": root.isBuiltIn,
                    ]
                    if root.isBuiltIn {
                        out["present"] = true
                    } else {
                        let path = directory.map { $0 + "/" + root.fileName }
                        out["present"] = (try? AppleRootCertificates.certificate(root, directory: directory)) != nil
                        if let path { out["path"] = path }
                    }
                    return out
                }
                Output.printJSON([
                    "directory": directory.map { $0 as Any } ?? NSNull(), "download": AppleRootCertificates.downloadPage, "roots": roots,
                ])
            }
        }
    }

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install root certificate files (DER or PEM) after checking each against its pinned fingerprint.")
        @Argument(help: "Files downloaded from Apple's certificate authority page.") var files: [String]

        func run() {
            reportingErrors {
                guard let directory = RootsCommand.directory else {
                    throw CLIFailure(code: "usage", message: "no roots directory: set SIGIL_ROOTS (or HOME)")
                }
                var installed: [[String: Any]] = []
                for file in files {
                    let root = try AppleRootCertificates.install(try Input.read(file), named: file, into: directory)
                    installed.append(["name": root.name, "path": directory + "/" + root.fileName, "sha256": root.fingerprintText])
                }
                Output.printJSON(["installed": installed])
            }
        }
    }
}
