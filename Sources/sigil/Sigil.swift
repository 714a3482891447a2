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
            embedded data. Commands print JSON on stdout; failures print {"error", "message"} JSON on \
            stderr and exit non-zero.
            """,
        version: SigilVersion.current,
        subcommands: [
            Overview.self, KeyCommand.self, SignatureCommand.self, X509Command.self, CRLCommand.self, OCSPCommand.self, ReceiptCommand.self,
            TokenCommand.self, JWSCommand.self, VerifyCommand.self, ExternalPurchaseTokenCommand.self, DemoCommand.self, APICommand.self,
            SIWACommand.self, BenchCommand.self, DigestCommand.self, ASN1Command.self, PEMCommand.self, RootsCommand.self,
            DeviceCheckCommand.self, AppAttestCommand.self,
        ],
        defaultSubcommand: Overview.self
    )
}
