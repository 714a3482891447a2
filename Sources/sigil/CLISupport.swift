import ArgumentParser
import Foundation
import SigilASN1
import SigilBase
import SigilJOSE
import SigilX509

/// What every command reads: files (or standard input), certificates, times.
enum Input {
    /// The most any command reads from one file or standard input (the largest CRLs in use are
    /// tens of MiB; every other input is a few KiB or MiB). A longer input — `/dev/zero`, an
    /// endless pipe — is refused as `io.tooLarge` once this much has been read, never read whole.
    static let maximumBytes = 128 << 20

    /// Reads a file, or standard input for "-", up to ``maximumBytes``.
    static func read(_ path: String) throws -> [UInt8] {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw CLIFailure(code: "io.read", message: "cannot read \(path)")
            }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        var bytes: [UInt8] = []
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch {
                throw CLIFailure(code: "io.read", message: "cannot read \(path)")
            }
            guard let chunk, !chunk.isEmpty else { return bytes }
            guard bytes.count + chunk.count <= maximumBytes else {
                throw CLIFailure(
                    code: "io.tooLarge", message: "\(path == "-" ? "standard input" : path) holds more than \(maximumBytes) bytes")
            }
            bytes += chunk
        }
    }

    /// DER bytes from a file holding DER or one PEM block.
    static func derOrPEM(_ bytes: [UInt8]) throws -> (der: [UInt8], pemLabel: String?) {
        if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN ") {
            let document = try PEMDocument(pemString: text)
            return (document.derBytes, document.label)
        }
        return (bytes, nil)
    }

    /// Every certificate in a file (DER, or PEM blocks).
    static func certificates(_ path: String) throws -> [Certificate] {
        try Certificate.load(try Input.read(path))
    }

    /// The time an option names (RFC 3339 or unix seconds), nil when it was not given; anything
    /// else is a usage error naming the option.
    static func time(_ text: String?, option: String) throws -> Int64? {
        guard let text else { return nil }
        guard let parsed = Time.parse(text) else {
            throw CLIFailure(code: "usage", message: "\(option) must be RFC 3339 (2025-10-01T07:08:38Z) or unix seconds")
        }
        return parsed
    }
}

/// Times as the CLI prints and reads them.
enum Time {
    /// "2025-10-01T07:08:38Z".
    static func rfc3339(_ c: ASN1TimeComponents) -> String {
        func pad(_ v: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(v).count)) + String(v) }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))Z"
    }

    /// Seconds since the epoch as RFC 3339 (the number itself when out of range).
    static func rfc3339(_ seconds: Int64) -> String {
        (try? ASN1TimeComponents(secondsSinceEpoch: seconds)).map { rfc3339($0) } ?? String(seconds)
    }

    /// "2025-10-01T07:08:38Z", "2025-10-01T09:08:38+02:00" (fractions ignored; SigilASN1's
    /// `RFC3339Timestamp`, the one RFC 3339 reader) or a unix time.
    static func parse(_ text: String) -> Int64? {
        Int64(text) ?? RFC3339Timestamp.secondsSinceEpoch(of: text)
    }
}

/// JSON values for ``Output/json(_:)``.
enum JSONCLI {
    /// A JSONValue as Foundation objects for Output.json (numbers keep their value).
    static func any(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let n):
            if let integer = Int64(n) { return integer }
            return Double(n) ?? 0
        case .string(let s): return s
        case .array(let a): return a.map(any)
        case .object(let o): return Dictionary(o.map { ($0.0, any($0.1)) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// Bytes as the JSON they hold, or as text when they hold none.
    static func any(bytes: [UInt8]) -> Any {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) ?? String(decoding: bytes, as: UTF8.self)
    }
}
