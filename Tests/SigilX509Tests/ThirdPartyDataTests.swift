import Foundation
import SigilCore
import SigilTestSupport
import XCTest

/// Third-party data (Apple's certificates and real App Store data) is read through one helper,
/// `Scripts/vectors-dir`; without the data a test that needs it fails, naming `Scripts/get-vectors`.
final class ThirdPartyDataTests: XCTestCase {
    private var script: String { TestPaths.repositoryRoot.appendingPathComponent("Scripts/vectors-dir").path }

    private func emptyDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// The helper resolves the data this run uses, and it holds what the tests read.
    func testHelperFindsTheAppleData() throws {
        let apple = try TestPaths.requireAppleVectors()
        for relative in ["real/apple-pki/AppleRootCA-G3.cer", "library/swift/Tests/AppStoreServerLibraryTests/resources/certs/testCA.der"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: apple.appendingPathComponent(relative).path), relative)
        }
    }

    /// `SIGIL_APPLE_VECTORS` naming an empty (or absent) directory: the helper refuses with a
    /// message that names `Scripts/get-vectors`.
    func testHelperRefusesAnEmptyDirectory() throws {
        let empty = try emptyDirectory()
        for candidate in [empty.path, empty.appendingPathComponent("absent").path] {
            let result = try Subprocess.run("/bin/bash", [script, "apple"], environment: ["SIGIL_APPLE_VECTORS": candidate])
            XCTAssertEqual(result.status, 1)
            XCTAssertEqual(result.stdoutString, "")
            let message = String(decoding: result.stderr, as: UTF8.self)
            XCTAssertTrue(message.contains("Scripts/get-vectors"), message)
            XCTAssertTrue(message.contains(candidate), message)
        }
    }

    /// A real test that reads Apple's data, run in a child process of this test bundle with
    /// `SIGIL_APPLE_VECTORS` pointing to an empty directory, fails (it does not skip) and its
    /// failure message names `Scripts/get-vectors`.
    func testAnAppleDataTestFailsWithoutTheData() throws {
        let empty = try emptyDirectory()
        let bundle = ProcessInfo.processInfo.arguments[0]
        guard FileManager.default.isExecutableFile(atPath: bundle) else {
            return XCTFail("the test bundle \(bundle) is not an executable to run a child test with")
        }
        let selected = "SigilX509Tests.AppleChainTests/testReceiptEraRSAChain"
        let child = try Subprocess.run(bundle, [selected], environment: ["SIGIL_APPLE_VECTORS": empty.path])
        let output = child.stdoutString + String(decoding: child.stderr, as: UTF8.self)
        XCTAssertNotEqual(child.status, 0, output)
        XCTAssertTrue(output.contains("Executed 1 test, with 1 failure"), output)
        XCTAssertFalse(output.contains("skipped"), output)
        XCTAssertTrue(output.contains("Scripts/get-vectors"), output)
        XCTAssertTrue(output.contains(empty.path), output)
    }

    // MARK: Scripts/get-vectors

    private var getVectors: String { TestPaths.repositoryRoot.appendingPathComponent("Scripts/get-vectors").path }

    /// The manifest's rows: (path, sha256).
    private func manifestRows() throws -> [(path: String, sha256: String)] {
        let text = try String(
            contentsOf: TestPaths.repositoryRoot.appendingPathComponent("Vectors/third-party-manifest/manifest.tsv"), encoding: .utf8)
        let lines = text.split(separator: "\n").dropFirst()
        return lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return (String(fields[0]), String(fields[1]))
        }
    }

    /// The vectors folder this run reads (the parent of the Apple set).
    private func vectorsRoot() throws -> URL { try TestPaths.requireAppleVectors().deletingLastPathComponent() }

    private func assertSameFiles(
        _ placed: URL, _ reference: URL, rows: [(path: String, sha256: String)], file: StaticString = #filePath, line: UInt = #line
    ) {
        for row in rows {
            let a = FileManager.default.contents(atPath: placed.appendingPathComponent(row.path).path)
            let b = FileManager.default.contents(atPath: reference.appendingPathComponent(row.path).path)
            XCTAssertNotNil(a, "\(row.path) was not placed", file: file, line: line)
            XCTAssertEqual(a, b, "\(row.path) differs from the reference copy", file: file, line: line)
        }
    }

    /// The manifest covers every data file of the folder this run reads, and each one's sha256 is
    /// what the manifest says (the same check `get-vectors` makes, done here in Swift).
    func testManifestMatchesTheData() throws {
        let root = try vectorsRoot()
        let rows = try manifestRows()
        XCTAssertGreaterThanOrEqual(rows.count, 130)
        for row in rows {
            let data = try Data(contentsOf: root.appendingPathComponent(row.path))
            XCTAssertEqual(Hex.encode(SHA256.hash(Array(data))), row.sha256, row.path)
        }
        // Every file of the data sets the manifest manages (its rows' first path components) is
        // listed. A data set joins the manifest, and this walk, with its first reader (mdoc/: the
        // COSE tests).
        let sets = Set(rows.compactMap { $0.path.split(separator: "/").first.map(String.init) })
        var onDisk: Set<String> = []
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                !["PROVENANCE.md", "README.md"].contains(url.lastPathComponent)
            else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            guard let set = path.split(separator: "/").first.map(String.init), sets.contains(set) else { continue }
            onDisk.insert(path)
        }
        XCTAssertEqual(sets, ["apple", "appattest", "applepay", "mdoc"], "the data sets Scripts/vectors-dir names")
        XCTAssertEqual(onDisk.subtracting(rows.map(\.path)), [], "data files the manifest does not list")
    }

    /// Copy mode: from the shared folder (the default where it exists) into a fresh destination,
    /// every file identical and checked; a copy source with a corrupted file is refused, naming it,
    /// and leaves nothing behind.
    func testGetVectorsCopiesAndChecks() throws {
        let root = try vectorsRoot()
        let rows = try manifestRows()
        let work = try emptyDirectory()
        let dest = work.appendingPathComponent("placed")
        let ok = try Subprocess.run("/bin/bash", [getVectors, "--dest", dest.path], environment: ["SIGIL_VECTORS_BASE_URL": ""])
        XCTAssertEqual(ok.status, 0, String(decoding: ok.stderr, as: UTF8.self))
        XCTAssertTrue(ok.stdoutString.contains("copying"), ok.stdoutString)
        assertSameFiles(dest, root, rows: rows)

        let source = work.appendingPathComponent("source")
        try FileManager.default.copyItem(at: root, to: source)
        let victim = "apple/real/apple-pki/AppleRootCA-G3.cer"
        var bytes = try Data(contentsOf: source.appendingPathComponent(victim))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: source.appendingPathComponent(victim))
        let bad = try Subprocess.run("/bin/bash", [getVectors, "--from", source.path, "--dest", work.appendingPathComponent("bad").path])
        let message = String(decoding: bad.stderr, as: UTF8.self)
        XCTAssertEqual(bad.status, 1, message)
        XCTAssertTrue(message.contains(victim), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("bad").path))
    }

    /// Download mode against a loopback server serving a copy of the vectors folder: every file
    /// downloaded and checked; then with one served file corrupted and one missing, both reported
    /// by name, exit 1, and the destination left as it was.
    func testGetVectorsDownloadsAndChecks() throws {
        let root = try vectorsRoot()
        let rows = try manifestRows()
        let work = try emptyDirectory()
        let served = work.appendingPathComponent("served")
        try FileManager.default.copyItem(at: root, to: served)
        let server = try LoopbackScript(script: TestPaths.fixtures("SigilX509Tests", "static_server.py"), arguments: [served.path])
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"

        let dest = work.appendingPathComponent("placed")
        let ok = try Subprocess.run("/bin/bash", [getVectors, "--base-url", base, "--dest", dest.path])
        XCTAssertEqual(ok.status, 0, String(decoding: ok.stderr, as: UTF8.self))
        XCTAssertTrue(ok.stdoutString.contains("\(rows.count) files downloaded and checked"), ok.stdoutString)
        assertSameFiles(dest, root, rows: rows)
        // The PROVENANCE files come from the repository's manifest folder.
        XCTAssertTrue(FileManager.default.fileExists(atPath: dest.appendingPathComponent("apple/real/PROVENANCE.md").path))

        let corrupted = "apple/real/jws/awa-go-iap/sandbox-renewalinfo-2023-05-23.jws"
        let missing = "apple/library/swift/Tests/AppStoreServerLibraryTests/resources/certs/testCA.der"
        var bytes = try Data(contentsOf: served.appendingPathComponent(corrupted))
        bytes[10] = bytes[10] == 0x41 ? 0x42 : 0x41
        try bytes.write(to: served.appendingPathComponent(corrupted))
        try FileManager.default.removeItem(at: served.appendingPathComponent(missing))
        let bad = try Subprocess.run("/bin/bash", [getVectors, "--base-url", base, "--dest", dest.path])
        let message = String(decoding: bad.stderr, as: UTF8.self)
        XCTAssertEqual(bad.status, 1, message)
        XCTAssertTrue(message.contains(corrupted) && message.contains("sha256"), message)
        XCTAssertTrue(message.contains(missing) && message.contains("404"), message)
        // The earlier, good placement is untouched: nothing unchecked replaced it.
        assertSameFiles(dest, root, rows: rows)
    }
}
