import Foundation
import Logging
import NotificationReceiverKit
import SigilHTTP

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
    // Text lines: a client's text in a message (a refused member name, a key id) stays on its line.
    var handler = SingleLineLogHandler(StreamLogHandler.standardError(label: label))
    handler.logLevel = level
    return handler
}
let logger = Logger(label: "notification-receiver")
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    FileHandle.standardOutput.write(Data(ReceiverConfiguration.usage.utf8))
    exit(0)
}
if arguments.first == "backfill" {
    // notification-receiver backfill --since T [--until T] --asc-… [receiver options]: see BackfillOptions.
    let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    let options: BackfillOptions
    let backfillConfiguration: ReceiverConfiguration
    do {
        let parsed = try BackfillOptions.parse(
            arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment, now: now)
        options = parsed.options
        backfillConfiguration = try ReceiverConfiguration.load(arguments: parsed.rest, environment: ProcessInfo.processInfo.environment)
    } catch {
        FileHandle.standardError.write(Data("notification-receiver backfill: \(error)\n".utf8))
        exit(64)
    }
    do {
        let summary = try await ReceiverBackfill.run(
            configuration: backfillConfiguration, options: options, logger: logger, transport: AsyncHTTPClientTransport(),
            progress: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        FileHandle.standardOutput.write(try encoder.encode(summary) + Data("\n".utf8))
        exit(summary.refused > 0 ? 2 : 0)
    } catch {
        FileHandle.standardError.write(Data("notification-receiver backfill: \(error)\n".utf8))
        exit(1)
    }
}
let configuration: ReceiverConfiguration
do {
    configuration = try ReceiverConfiguration.load(
        arguments: arguments,
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
