import ArgumentParser
import Foundation
import SigilHTTP
import SigilTokens

/// `sigil devicecheck …`: DeviceCheck's per-device bits from the shell.
struct DeviceCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devicecheck",
        abstract: "Query, update or validate a device's two DeviceCheck bits; JSON out.",
        discussion: """
            DEVICE_TOKEN is the base64 of what DCDevice.generateToken returned on the device. Each call mints a fresh ES256 \
            token (iss the team id) from --key. Failures print {error, message} on stderr: devicecheck.badRequest (Apple's \
            400 text), devicecheck.unauthorized, devicecheck.unavailable, devicecheck.transport.
            """,
        subcommands: [Query.self, Update.self, Validate.self])

    struct Options: ParsableArguments {
        @Option(help: "The .p8 private key file of a DeviceCheck key.") var key: String
        @Option(help: "The key's identifier (kid).") var keyId: String
        @Option(help: "Team id (the token's iss).") var teamId: String
        @Option(help: "production or development.") var environment: String = "development"
        @Option(help: "Another base URL (a test server); overrides --environment.") var baseUrl: String?
        @Option(help: "Seconds before a call is abandoned.") var timeout: Double = 30

        func client() throws -> DeviceCheckClient {
            let signing: AppleSigningKey
            signing = try AppleSigningKey(p8: try Input.read(key), keyID: keyId)
            let env: DeviceCheckEnvironment
            if let baseUrl {
                env = .custom(baseURL: baseUrl)
            } else {
                switch environment {
                case "production": env = .production
                case "development": env = .development
                default: throw CLIFailure(code: "usage", message: "--environment is production or development")
                }
            }
            return DeviceCheckClient(signingKey: signing, teamID: teamId, environment: env, timeout: timeout)
        }
    }

    struct Query: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The device's bits: {bit0, bit1, lastUpdateTime}, or {found: false}.")
        @OptionGroup var options: Options
        @Argument(help: "The device token (base64).") var deviceToken: String
        func run() async {
            do {
                if let bits = try await options.client().queryTwoBits(deviceToken: deviceToken) {
                    Output.printJSON(["found": true, "bit0": bits.bit0, "bit1": bits.bit1, "lastUpdateTime": bits.lastUpdateTime])
                } else {
                    Output.printJSON(["found": false])
                }
            } catch { CLIFailure(error).report() }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sets both bits.")
        @OptionGroup var options: Options
        @Option(help: "true or false.") var bit0: Bool
        @Option(help: "true or false.") var bit1: Bool
        @Argument(help: "The device token (base64).") var deviceToken: String
        func run() async {
            do {
                try await options.client().updateTwoBits(deviceToken: deviceToken, bit0: bit0, bit1: bit1)
                Output.printJSON(["status": "ok"])
            } catch { CLIFailure(error).report() }
        }
    }

    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Whether Apple knows the device token: {valid: true}, exit 0.")
        @OptionGroup var options: Options
        @Argument(help: "The device token (base64).") var deviceToken: String
        func run() async {
            do {
                try await options.client().validateDeviceToken(deviceToken: deviceToken)
                Output.printJSON(["valid": true])
            } catch { CLIFailure(error).report() }
        }
    }
}
