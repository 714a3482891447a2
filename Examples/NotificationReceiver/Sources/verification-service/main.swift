import Foundation
import Logging
import NotificationReceiverKit

// verification-service: Sigil's HTTP verification service (POST /v1/verify, GET /health,
// GET /v1/openapi.json). No database, no configuration needed but for kind applepay (issue 38),
// whose merchant keys and replay store are options (see ApplePayOptions), and an API key for
// POST /v1/verify (required with merchant keys off loopback). `verification-service --help` lists
// the options (VerificationServiceOptions.options):
//
//   verification-service [--host 127.0.0.1] [--port 8080] [--max-body-bytes 1048576] [--body-timeout SECONDS]
//       [--idle-timeout SECONDS] [--api-key-file PATH (or VERIFICATION_API_KEY)]
//       [--applepay-merchant KEY=CERT]... [--applepay-merchant-id KEY=MERCHANT_ID]... [--applepay-root FILE]...
//       [--applepay-tolerance SECONDS] [--sqlite PATH | --postgres-url URL | --applepay-without-replay-protection]
//       [--mdoc-iaca FILE]... [--refuse-request-trust]
//
// A request's trust configuration (roots not Apple's, environments ["Xcode"], unpinnedTestRoot) is
// verified and named in the answer ("trust", "appleRoot" in notEnforced) unless
// --refuse-request-trust, which answers it request.trustRefused (403).
LoggingSystem.bootstrap { label in
    var handler = SingleLineLogHandler(StreamLogHandler.standardError(label: label))
    handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    return handler
}
func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("verification-service: \(message)\n".utf8))
    exit(64)
}
let options: VerificationServiceOptions
do {
    switch try VerificationServiceOptions.parse(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    {
    case .help:
        FileHandle.standardOutput.write(Data(VerificationServiceOptions.usage.utf8))
        exit(0)
    case .run(let parsed): options = parsed
    }
} catch {
    usage("\(error)")
}
let logger = Logger(label: "verification-service")
do {
    _ = try options.applePay.configuration(logger: logger)  // refused options end here, before any port is bound
    _ = try options.mdocConfiguration()
} catch {
    usage("\(error)")
}
do {
    try await VerificationServer.run(options: options, logger: logger)
} catch {
    logger.critical("stopped: \(String(reflecting: error))")
    exit(1)
}
