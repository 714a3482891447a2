import ArgumentParser
import Foundation
import SigilBase
import SigilCore
import SigilX509

/// JSON output helpers. Keys are sorted so output is stable for scripts and tests.
enum Output {
    static func json(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func printJSON(_ value: Any) { print(json(value)) }

    /// Numbered verification steps as `--explain` prints them: "[PASS] check — clause" and the
    /// detail indented below (a note has no mark).
    static func stepLines(_ steps: [VerificationStep]) -> [String] {
        var lines: [String] = []
        for (i, step) in steps.enumerated() {
            let mark =
                switch step.verdict {
                case .pass: "PASS"
                case .fail: "FAIL"
                case .note: "    "
                }
            let heading = "\(step.check.isEmpty ? "" : step.check + " — ")\(step.clause)"
            lines.append("\(String(format: "%2d", i + 1)). [\(mark)] \(terminalSafe(heading))")
            lines.append("       \(terminalSafe(step.detail))")
        }
        return lines
    }

    /// `text` as it may reach a terminal: a step's detail quotes what the data carries (a bundle
    /// id, a certificate's name), so control characters — escape sequences, carriage returns, line
    /// breaks that would start a forged line — are written as `\u{…}`, never raw.
    static func terminalSafe(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
                out += "\\u{\(String(value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `--explain`: the trace's steps and the verdict (VALID, or the failure's code) on stderr.
    static func printTrace(_ trace: VerificationTrace?, verdict: String) {
        guard let trace else { return }
        let lines = stepLines(trace.steps) + ["verdict: \(verdict)"]
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Base16.encode(bytes)
    }
}

/// Every failure of every command, in one shape: `{"error": CODE, "message": ..., "failures"?:
/// [{"reason", "rule"}], "hint"?: ...}` as JSON (sorted keys) on stderr, with a non-zero exit
/// (1 unless the command documents another). Nothing of a failure goes to stdout.
struct CLIFailure: Error {
    let code: String
    let message: String
    /// The certificate verifier's typed reasons, when a chain failed.
    var failures: [ValidationFailure] = []
    /// The obvious next step, when the command knows one.
    var hint: String?
    var exitCode: Int32 = 1

    init(code: String, message: String, failures: [ValidationFailure] = [], hint: String? = nil, exitCode: Int32 = 1) {
        self.code = code
        self.message = message
        self.failures = failures
        self.hint = hint
        self.exitCode = exitCode
    }

    /// The one mapping of errors to reports: any Sigil error as its `domain.code` (`x509.malformed`,
    /// `appstore.INVALID_CONFIGURATION`, `api.http404`), and its typed chain failures when it
    /// carries them; only what is not a Sigil error — a file or process failure
    /// from Foundation — is `io`.
    init(_ error: Error, hint: String? = nil) {
        switch error {
        case let e as CLIFailure:
            self = e
        case let e as any CodedError:
            // With typed failures the message is the reason and the failures are listed beside it
            // (the description repeats them); otherwise the description, which may say more.
            let failures = (e as? any ChainFailureError)?.failures ?? []
            self.init(code: e.qualifiedCode, message: failures.isEmpty ? e.description : e.reason, failures: failures)
        default:
            self.init(code: "io", message: "\(error)")
        }
        if let hint { self.hint = hint }
    }

    /// This failure exiting with `code`.
    func withExitCode(_ code: Int32) -> CLIFailure {
        var copy = self
        copy.exitCode = code
        return copy
    }

    /// The report as JSON.
    var json: [String: Any] {
        var report: [String: Any] = ["error": code, "message": message]
        if !failures.isEmpty { report["failures"] = failures.map { ["reason": $0.description, "rule": $0.rule] } }
        if let hint { report["hint"] = hint }
        return report
    }

    func report() -> Never {
        FileHandle.standardError.write(Data((Output.json(json) + "\n").utf8))
        Foundation.exit(exitCode)
    }
}

extension ParsableCommand {
    /// Runs `body`, turning any error into the JSON error report.
    func reportingErrors(_ body: () throws -> Void) {
        do { try body() } catch { CLIFailure(error).report() }
    }
}
