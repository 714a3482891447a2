import Foundation
import XCTest

/// Every public type, initializer and function of SigilAppStore, SigilAdvancedCommerce, SigilJOSE and SigilX509 carries a
/// DocC comment (`///` directly above it or above its attributes).
final class DocumentationCoverageTests: XCTestCase {
    func testEveryPublicTypeAndFunctionIsDocumented() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let declaration = try NSRegularExpression(
            pattern:
                #"^\s*(@\w+(\([^)]*\))?\s+)*(public|open)\s+(final\s+)?(static\s+|mutating\s+|convenience\s+|nonisolated\s+)*(struct|class|enum|protocol|actor|func|init|typealias|subscript)\b"#
        )
        var undocumented: [String] = []
        var seen = 0
        for module in ["SigilAppStore", "SigilAdvancedCommerce", "SigilJOSE", "SigilX509"] {
            let root = sources.appendingPathComponent(module)
            let files =
                FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
                .filter { $0.pathExtension == "swift" } ?? []
            XCTAssertFalse(files.isEmpty, "no sources under \(root.path)")
            for file in files {
                let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                for (i, line) in lines.enumerated() {
                    let range = NSRange(line.startIndex..., in: line)
                    guard declaration.firstMatch(in: line, range: range) != nil else { continue }
                    seen += 1
                    var j = i - 1
                    while j >= 0, lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("@") { j -= 1 }
                    let above = j >= 0 ? lines[j].trimmingCharacters(in: .whitespaces) : ""
                    if !above.hasPrefix("///") && !above.hasSuffix("*/") {
                        undocumented.append("\(module)/\(file.lastPathComponent):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        XCTAssertGreaterThan(seen, 300, "the scan found too few declarations to be meaningful")
        XCTAssertTrue(undocumented.isEmpty, "\(undocumented.count) undocumented:\n" + undocumented.joined(separator: "\n"))
    }
}
