import Foundation
import SigilBase
import SigilTestSupport
import XCTest

/// The CLI's own texts: every command's help reads as paragraphs (no sentence broken by a hard
/// line break in the source), `--version` prints the one version constant, and argument-parser's
/// completion scripts come out for each shell.
final class HelpTextTests: XCTestCase {
    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: HelpTextTests.self).path
    }

    /// Renders `sigil [path…] --help` on a terminal so wide that argument-parser wraps nothing:
    /// every line break left is one the source wrote.
    private func help(_ path: [String]) throws -> String {
        let result = try Subprocess.run(try sigil(), path + ["--help"], environment: ["COLUMNS": "10000"])
        XCTAssertEqual(result.status, 0, "sigil \(path.joined(separator: " ")) --help")
        return result.stdoutString
    }

    /// The subcommand names listed under SUBCOMMANDS.
    private func subcommands(_ text: String) -> [String] {
        var names: [String] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("SUBCOMMANDS:") {
                inside = true
                continue
            }
            guard inside else { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            if let name = line.split(separator: " ").first, line.hasPrefix("  ") { names.append(String(name)) }
        }
        return names.filter { $0 != "help" }
    }

    /// A sentence broken mid-line: a prose line (argument-parser prints the overview and discussion
    /// at the left margin, options and list items indented) that does not end a sentence or
    /// introduce a list, followed by a line that starts in lower case.
    static func brokenSentences(in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var broken: [String] = []
        for (line, next) in zip(lines, lines.dropFirst()) {
            let a = line.trimmingCharacters(in: .whitespaces)
            let b = next.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix(" "), !a.isEmpty, !b.isEmpty, let last = a.last, !".:!?".contains(last) else { continue }
            guard let first = b.first, first.isLowercase || first == "(" else { continue }
            broken.append("\(a.suffix(40)) ⏎ \(b.prefix(40))")
        }
        return broken
    }

    func testEveryHelpTextIsParagraphs() throws {
        var queue: [[String]] = [[]]
        var seen = 0
        var broken: [String] = []
        while let path = queue.first {
            queue.removeFirst()
            let text = try help(path)
            seen += 1
            broken += Self.brokenSentences(in: text).map { "sigil \(path.joined(separator: " ")): \($0)" }
            queue += subcommands(text).map { path + [$0] }
        }
        XCTAssertGreaterThan(seen, 40, "every command's help was rendered")
        XCTAssertEqual(broken, [], broken.joined(separator: "\n"))
    }

    /// The checker itself finds the break the issue quotes.
    func testCheckerFindsABrokenSentence() {
        let text = "OVERVIEW: Print what this build can do and run its self-check\non\nembedded data.\n"
        XCTAssertEqual(Self.brokenSentences(in: text).count, 2)
        XCTAssertEqual(Self.brokenSentences(in: "First sentence.\nSecond one.\n  --flag  does x\n"), [])
    }

    func testVersionAndCompletionScripts() throws {
        let version = try Subprocess.run(try sigil(), ["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines), SigilVersion.current)
        let overview =
            try JSONSerialization.jsonObject(with: try Subprocess.run(try sigil(), ["overview", "--json"]).stdout) as? [String: Any]
        XCTAssertEqual(overview?["version"] as? String, SigilVersion.current)
        // CHANGELOG.md has a section for this version.
        let changelog = try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        XCTAssertTrue(changelog.contains("## \(SigilVersion.current)"), "CHANGELOG.md has no section for \(SigilVersion.current)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try Subprocess.run(try sigil(), ["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, shell)
            XCTAssertTrue(script.stdoutString.contains("roots"), "the \(shell) script completes the roots command")
            XCTAssertTrue(script.stdoutString.contains("verify"), shell)
        }
    }
}
