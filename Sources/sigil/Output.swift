import ArgumentParser
import Foundation
import SigilASN1
import SigilBase
import SigilCore

/// JSON output helpers. Keys are sorted so output is stable for scripts and tests.
enum Output {
    static func json(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses an even-length hex string; nil if it is not one.
    static func unhex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < digits.count {
            guard let byte = UInt8(String(decoding: digits[i..<(i + 2)], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
            i += 2
        }
        return out
    }

    static func printJSON(_ value: Any) { print(json(value)) }

    /// Numbered verification steps as `--explain` prints them: "[PASS] check — clause" and the
    /// detail indented below (passed nil: a note).
    static func stepLines(_ steps: [(passed: Bool?, check: String, clause: String, detail: String)]) -> [String] {
        var lines: [String] = []
        for (i, step) in steps.enumerated() {
            let mark = step.passed == true ? "PASS" : step.passed == false ? "FAIL" : "    "
            lines.append("\(String(format: "%2d", i + 1)). [\(mark)] \(step.check.isEmpty ? "" : step.check + " — ")\(step.clause)")
            lines.append("       \(step.detail)")
        }
        return lines
    }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Base16.encode(bytes)
    }
}

/// A failure reported as `{"error": CODE, "message": ...}` on stderr with exit code 1.
struct CLIFailure: Error {
    let code: String
    let message: String
    var exitCode: Int32 = 1

    init(code: String, message: String, exitCode: Int32 = 1) {
        self.code = code
        self.message = message
        self.exitCode = exitCode
    }

    /// The one mapping of errors to reports: any Sigil error as its `domain.code` (`x509.malformed`,
    /// `appstore.INVALID_CONFIGURATION`, `api.http404`); only what is not a Sigil error — a file
    /// or process failure from Foundation — is `io`.
    init(_ error: Error) {
        switch error {
        case let e as CLIFailure:
            self = e
        case let e as any CodedError:
            self.init(code: e.qualifiedCode, message: e.description)
        default:
            self.init(code: "io", message: "\(error)")
        }
    }

    func report() -> Never {
        FileHandle.standardError.write(Data((Output.json(["error": code, "message": message]) + "\n").utf8))
        Foundation.exit(exitCode)
    }
}

extension ParsableCommand {
    /// Runs `body`, turning any error into the JSON error report.
    func reportingErrors(_ body: () throws -> Void) {
        do { try body() } catch { CLIFailure(error).report() }
    }
}

enum Input {
    /// Reads a file, or standard input for "-".
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIFailure(code: "io.read", message: "cannot read \(path)")
        }
        return Array(data)
    }

    /// DER bytes from a file holding DER or one PEM block.
    static func derOrPEM(_ bytes: [UInt8]) throws -> (der: [UInt8], pemLabel: String?) {
        if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN ") {
            let document = try PEMDocument(pemString: text)
            return (document.derBytes, document.label)
        }
        return (bytes, nil)
    }
}
