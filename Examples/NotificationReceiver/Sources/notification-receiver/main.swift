import Foundation
import Logging
import NotificationReceiverKit

// notification-receiver: App Store Server Notifications V2 → verified with Sigil → SQLite or
// PostgreSQL. Configuration: see ReceiverConfiguration (flags and RECEIVER_* variables).
// LOG_LEVEL (default info); RECEIVER_LOG_FORMAT=json for one JSON object per line.
LoggingSystem.bootstrap { label in
    let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    if ProcessInfo.processInfo.environment["RECEIVER_LOG_FORMAT"] == "json" {
        var handler = JSONLogHandler(label: label)
        handler.logLevel = level
        return handler
    }
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = level
    return handler
}
let logger = Logger(label: "notification-receiver")
let configuration: ReceiverConfiguration
do {
    configuration = try ReceiverConfiguration.load(
        arguments: Array(CommandLine.arguments.dropFirst()),
        environment: ProcessInfo.processInfo.environment)
} catch {
    FileHandle.standardError.write(Data("notification-receiver: \(error)\n".utf8))
    exit(64)
}
do {
    try await ReceiverService.run(configuration: configuration, logger: logger)
} catch {
    logger.critical("stopped: \(String(reflecting: error))")
    exit(1)
}
