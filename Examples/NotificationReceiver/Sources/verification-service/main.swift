import Foundation
import Logging
import NotificationReceiverKit

// verification-service: Sigil's stateless HTTP verification service (POST /v1/verify, GET /health,
// GET /v1/openapi.json). No database, no configuration needed:
//
//   verification-service [--host 127.0.0.1] [--port 8080] [--max-body-bytes 1048576] [--body-timeout SECONDS]
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    return handler
}
var host = "127.0.0.1"
var port = 8080
var maxBodyBytes = VerificationRoutes.defaultMaxBodyBytes
var bodyTimeout = VerificationRoutes.defaultBodyTimeout
var arguments = Array(CommandLine.arguments.dropFirst())[...]
func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("verification-service: \(message)\n".utf8))
    exit(64)
}
while let flag = arguments.popFirst() {
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
    default: usage("unknown option \(flag)")
    }
}
let logger = Logger(label: "verification-service")
do {
    try await VerificationServer.run(host: host, port: port, maxBodyBytes: maxBodyBytes, bodyTimeout: bodyTimeout, logger: logger)
} catch {
    logger.critical("stopped: \(String(reflecting: error))")
    exit(1)
}
