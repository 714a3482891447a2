import Foundation
import XCTest

/// One name per type: no two library products declare a top-level public type of the same name
/// (code importing both would have to qualify every use, as it once had to for two
/// `SignedDataVerifier`s). The product list is read from Package.swift, so a new product is
/// covered without editing this test.
final class PublicNameTests: XCTestCase {
    func testNoTwoProductsDeclareThePublicTypeName() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let product = try NSRegularExpression(pattern: #"\.library\(name: "(\w+)", targets: \["(\w+)"\]\)"#)
        let modules = product.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)).compactMap {
            Range($0.range(at: 2), in: manifest).map { String(manifest[$0]) }
        }
        XCTAssertGreaterThanOrEqual(modules.count, 12, "library products read from Package.swift: \(modules)")
        // A top-level declaration starts at column 0 (nested types are qualified by their parent).
        let declaration = try NSRegularExpression(
            pattern: #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:final\s+)?(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)"#)
        var owners: [String: Set<String>] = [:]
        for module in modules {
            let directory = root.appendingPathComponent("Sources").appendingPathComponent(module)
            let files =
                FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
                .filter { $0.pathExtension == "swift" } ?? []
            XCTAssertFalse(files.isEmpty, "no sources under \(directory.path)")
            for file in files {
                for line in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n") {
                    guard let match = declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                        let name = Range(match.range(at: 1), in: line)
                    else { continue }
                    owners[String(line[name]), default: []].insert(module)
                }
            }
        }
        XCTAssertGreaterThan(owners.count, 150, "the scan found too few public types to be meaningful")
        let shared = owners.filter { $0.value.count > 1 }.map { "\($0.key): \($0.value.sorted().joined(separator: ", "))" }.sorted()
        XCTAssertEqual(shared, [], "public type names declared by more than one product")
    }
}
