import Foundation
import Logging
import NotificationReceiverKit

// verification-service: Sigil's HTTP verification service (POST /v1/verify, GET /health,
// GET /v1/openapi.json). No database, no configuration needed but for kind applepay (issue 38),
// whose merchant keys and replay store are options (see ApplePayOptions):
//
//   verification-service [--host 127.0.0.1] [--port 8080] [--max-body-bytes 1048576] [--body-timeout SECONDS]
//       [--applepay-merchant KEY=CERT]... [--applepay-merchant-id KEY=MERCHANT_ID]... [--applepay-root FILE]...
//       [--applepay-tolerance SECONDS] [--sqlite PATH | --postgres-url URL | --applepay-without-replay-protection]
//       [--refuse-request-trust]
//
// A request's trust configuration (roots not Apple's, environments ["Xcode"], unpinnedTestRoot) is
// verified and named in the answer ("trust", "appleRoot" in notEnforced) unless
// --refuse-request-trust, which answers it request.trustRefused (403).
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    return handler
}
var host = "127.0.0.1"
var port = 8080
var maxBodyBytes = VerificationRoutes.defaultMaxBodyBytes
var bodyTimeout = VerificationRoutes.defaultBodyTimeout
var applePay = ApplePayOptions()
var refuseRequestTrust = false
var arguments = Array(CommandLine.arguments.dropFirst())[...]
func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("verification-service: \(message)\n".utf8))
    exit(64)
}
while let flag = arguments.popFirst() {
    if flag == "--refuse-request-trust" {
        refuseRequestTrust = true
        continue
    }
    if ApplePayOptions.switches.contains(flag) {
        _ = try? applePay.take(flag, nil)
        continue
    }
    guard let value = arguments.popFirst() else { usage("\(flag) needs a value") }
    switch flag {
    case "--host": host = value
    case "--port":
        guard let number = Int(value), (0...65_535).contains(number) else { usage("--port \(value) is not 0…65535") }
        port = number
    case "--max-body-bytes":
        guard let number = Int(value), number > 0 else { usage("--max-body-bytes \(value) is not a positive integer") }
        maxBodyBytes = number
    case "--body-timeout":
        guard let seconds = Double(value), seconds > 0, seconds <= 3600 else { usage("--body-timeout \(value) is not 0…3600 seconds") }
        bodyTimeout = .milliseconds(Int64(seconds * 1000))
    default:
        do {
            guard try applePay.take(flag, value) else { usage("unknown option \(flag)") }
        } catch { usage("\(error)") }
    }
}
let logger = Logger(label: "verification-service")
do {
    _ = try applePay.configuration(logger: logger)  // refused options end here, before any port is bound
} catch {
    usage("\(error)")
}
do {
    try await VerificationServer.run(
        host: host, port: port, maxBodyBytes: maxBodyBytes, bodyTimeout: bodyTimeout, applePay: applePay,
        requestTrust: refuseRequestTrust ? .refused : .acceptedAndReported, logger: logger)
} catch {
    logger.critical("stopped: \(String(reflecting: error))")
    exit(1)
}
