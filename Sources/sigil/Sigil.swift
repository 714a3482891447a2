import ArgumentParser
import SigilBase

/// `sigil`: every job from the shell. Argument parsing and output only; the work is in the
/// Sigil libraries.
@main
struct Sigil: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sigil",
        abstract: "Pure-Swift crypto and ASN.1 for Apple's App Store and account APIs.",
        discussion: """
            Run with no subcommand to print what this build can do and run its self-check on \
            embedded data. Commands print JSON on stdout; every failure, a usage error included, prints \
            one JSON object {"error", "message", "failures"?, "hint"?} on stderr and exits non-zero.
            """,
        version: SigilVersion.current,
        subcommands: [
            Overview.self, KeyCommand.self, SignatureCommand.self, X509Command.self, CRLCommand.self, OCSPCommand.self, ReceiptCommand.self,
            TokenCommand.self, JWSCommand.self, VerifyCommand.self, ExternalPurchaseTokenCommand.self, DemoCommand.self, APICommand.self,
            SIWACommand.self, BenchCommand.self, DigestCommand.self, ASN1Command.self, PEMCommand.self, RootsCommand.self,
            DeviceCheckCommand.self, AppAttestCommand.self, NotifyCommand.self, ApplePayCommand.self, MdocCommand.self,
        ],
        defaultSubcommand: Overview.self
    )

    /// Parses and runs the command; a usage error (an unknown option, a missing argument, a value
    /// that does not parse) is reported like every other failure, as `usage` JSON on stderr.
    /// Help and version requests print as ArgumentParser prints them.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            guard code != .success, !(error is ExitCode) else { exit(withError: error) }
            guard code == .validationFailure, !(error is CLIFailure), !(error is any CodedError) else { CLIFailure(error).report() }
            CLIFailure(
                code: "usage", message: message(for: error), hint: "sigil help <command> lists its options", exitCode: code.rawValue
            ).report()
        }
    }
}
