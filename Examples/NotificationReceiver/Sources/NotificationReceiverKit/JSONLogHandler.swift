import Foundation
import Logging

/// One JSON object per line on standard error — `{"time", "level", "label", "message", …metadata}`
/// — for log pipelines (`RECEIVER_LOG_FORMAT=json`). Metadata keys such as `notificationUUID`
/// become members, so one notification's lines can be found by its UUID.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    let write: @Sendable (String) -> Void

    public init(label: String, write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: String] = [
            "time": ISO8601DateFormatter.string(
                from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime, .withFractionalSeconds]),
            "level": event.level.rawValue, "label": label, "message": "\(event.message)",
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) where object[key] == nil {
            object[key] = "\(value)"
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(object) else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }
}

/// A log handler that keeps every entry on one line: the message's and the metadata values'
/// line breaks and other control characters are written as `\n`, `\r`, `\t` or `\u{XX}` before
/// `wrapped` (a text handler such as `StreamLogHandler`) writes them. Messages carry text a client
/// chose (a refused member name, a key id); without this, a client could put a newline and a
/// forged entry into the receiver's text log.
public struct SingleLineLogHandler<Wrapped: LogHandler>: LogHandler {
    var wrapped: Wrapped

    /// A handler writing through `wrapped`.
    public init(_ wrapped: Wrapped) { self.wrapped = wrapped }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(Self.singleLine("\(event.message)"))"
        event.metadata = event.metadata?.mapValues { .string(Self.singleLine("\($0)")) }
        wrapped.log(event: event)
    }

    /// `text` with each control character (C0, DEL, C1, and the Unicode line and paragraph
    /// separators) escaped, so that it is one line.
    public static func singleLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
