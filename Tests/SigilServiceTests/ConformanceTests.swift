import Foundation
import SigilASN1
import SigilAppStore
import SigilCore
import SigilJOSE
import SigilKeys
import SigilService
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// Conformance/cases.json through SigilService, the layer under every door: each case's request
/// (its files placed from the shared real data) must give the expected status and an answer that
/// holds every member the case names. The file is read with Foundation's JSON, not with the
/// parser under test.
final class ConformanceTests: XCTestCase {
    static let conformance = TestPaths.repositoryRoot.appendingPathComponent("Conformance")

    /// The cases with their requests as bytes, ready to send (shared with the other test files).
    static func loadCases() throws -> [(name: String, request: [UInt8], status: Int, answer: Any)] {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: conformance.appendingPathComponent("cases.json")))
        let cases = try XCTUnwrap((document as? [String: Any])?["cases"] as? [[String: Any]])
        return try cases.map { entry in
            let name = try XCTUnwrap(entry["name"] as? String)
            let expect = try XCTUnwrap(entry["expect"] as? [String: Any], name)
            let status = try XCTUnwrap(expect["status"] as? Int, name)
            let answer = try XCTUnwrap(expect["answer"], name)
            if let raw = entry["rawRequest"] as? String { return (name, Array(raw.utf8), status, answer) }
            var request = try XCTUnwrap(entry["request"] as? [String: Any], name)
            for (member, spec) in entry["files"] as? [String: Any] ?? [:] {
                if let list = spec as? [[String: String]] {
                    request[member] = try list.map(placed)
                } else {
                    request[member] = try placed(try XCTUnwrap(spec as? [String: String], name))
                }
            }
            let bytes = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])
            return (name, Array(bytes), status, answer)
        }
    }

    /// A file of the shared data as the case says: "text" (trimmed), "raw" or "base64" of its bytes.
    static func placed(_ spec: [String: String]) throws -> String {
        let path = try XCTUnwrap(spec["path"])
        let set = String(path.prefix { $0 != "/" })
        let url = try TestPaths.thirdParty(set).appendingPathComponent(String(path.dropFirst(set.count + 1)))
        let bytes = try Data(contentsOf: url)
        switch spec["as"] {
        case "text": return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        case "raw": return String(decoding: bytes, as: UTF8.self)
        case "base64": return bytes.base64EncodedString()
        default: throw MalformedCase(description: "unknown encoding \(spec["as"] ?? "none") for \(path) in cases.json")
        }
    }

    /// A case of cases.json the test cannot read: a failure of the conformance file, never a skip.
    struct MalformedCase: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether `actual` holds `expected`: objects member by member, arrays element by element
    /// with the same count, everything else equal.
    static func holds(_ actual: Any, _ expected: Any, at path: String = "") -> String? {
        switch expected {
        case let object as [String: Any]:
            guard let actualObject = actual as? [String: Any] else { return "\(path): not an object" }
            for (name, value) in object {
                guard let found = actualObject[name] else { return "\(path).\(name): absent" }
                if let problem = holds(found, value, at: "\(path).\(name)") { return problem }
            }
            return nil
        case let array as [Any]:
            guard let actualArray = actual as? [Any], actualArray.count == array.count else {
                return "\(path): not an array of \(array.count)"
            }
            for (index, (found, value)) in zip(actualArray, array).enumerated() {
                if let problem = holds(found, value, at: "\(path)[\(index)]") { return problem }
            }
            return nil
        default:
            return (actual as? NSObject) == (expected as? NSObject) ? nil : "\(path): \(actual) is not \(expected)"
        }
    }

    /// A roots directory holding the file's installedRoots, each under its own name (as `sigil
    /// roots install` names them): where the service finds Apple's roots that are not built in.
    static func installedRoots() throws -> String {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: conformance.appendingPathComponent("cases.json")))
        let paths = try XCTUnwrap((document as? [String: Any])?["installedRoots"] as? [String])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-roots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for path in paths {
            let set = String(path.prefix { $0 != "/" })
            let source = try TestPaths.thirdParty(set).appendingPathComponent(String(path.dropFirst(set.count + 1)))
            try Data(contentsOf: source).write(to: directory.appendingPathComponent(source.lastPathComponent))
        }
        return directory.path
    }

    func testEveryConformanceCase() throws {
        let service = VerificationService(requestTrust: .acceptedAndReported, appleRootsDirectory: try Self.installedRoots())
        let cases = try Self.loadCases()
        XCTAssertGreaterThanOrEqual(cases.count, 20)
        for testCase in cases {
            let answer = service.verify(json: testCase.request)
            XCTAssertEqual(answer.status.rawValue, testCase.status, "\(testCase.name): \(answer.json)")
            let parsed = try JSONSerialization.jsonObject(with: Data(answer.json.utf8))
            if let problem = Self.holds(parsed, testCase.answer) { XCTFail("\(testCase.name): \(problem) in \(answer.json)") }
            // The same request answered again (the chain now cached) gives the same bytes.
            XCTAssertEqual(service.verify(json: testCase.request).json, answer.json, testCase.name)
        }
    }

    /// The service given Apple's roots as certificates (what Embedded Swift and WebAssembly
    /// builds, which have no file system, pass) answers every case exactly as the one reading them
    /// from a roots directory; a root that is not Apple's pinned one is never used.
    func testRootsGivenAsCertificatesAnswerAsTheRootsDirectory() throws {
        let directory = try Self.installedRoots()
        var roots: [Certificate] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name))
            let text = String(decoding: bytes, as: UTF8.self)
            let der = text.contains("-----BEGIN") ? try PEMDocument.parseAll(text)[0].derBytes : Array(bytes)
            roots.append(try Certificate(derEncoded: der))
        }
        XCTAssertEqual(roots.count, 2)
        let now: Int64 = 1_764_633_600
        let fromDirectory = VerificationService(requestTrust: .acceptedAndReported, appleRootsDirectory: directory, clock: { now })
        let given = VerificationService(requestTrust: .acceptedAndReported, appleRoots: roots, clock: { now })
        let cases = try Self.loadCases()
        for testCase in cases {
            XCTAssertEqual(given.verify(json: testCase.request), fromDirectory.verify(json: testCase.request), testCase.name)
        }
        // Without the roots (or with a root that is not Apple's in their place), the receipt and
        // attestation cases that rely on installed roots are answered service.notConfigured.
        let test = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let wrong = VerificationService(requestTrust: .acceptedAndReported, appleRoots: [test.root], clock: { now })
        let withoutRoots = cases.filter { $0.name.contains("without roots") }
        XCTAssertEqual(withoutRoots.count, 2)
        for testCase in withoutRoots {
            let answer = wrong.verify(json: testCase.request)
            XCTAssertEqual(answer.status, .notConfigured, "\(testCase.name): \(answer.json)")
            XCTAssertTrue(answer.json.contains("\"service.notConfigured\""), answer.json)
        }
    }

    /// Each request of the file is valid under the JSON Schema exactly when SigilService does not
    /// refuse it for its shape (checked with python3-jsonschema, an independent validator).
    func testSchemaAgreesWithTheDecoder() throws {
        let python = try Subprocess.require("python3")
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            def unique(pairs):
                if len({name for name, _ in pairs}) != len(pairs): raise ValueError("duplicate member name")
                return dict(pairs)
            for line in sys.stdin:
                try: request = json.loads(line, object_pairs_hook=unique)
                except ValueError: print("notjson"); continue
                print("valid" if validator.is_valid(request) else "invalid")  # noqa
            """
        let cases = try Self.loadCases()
        let input = cases.map { String(decoding: $0.request, as: UTF8.self).replacingOccurrences(of: "\n", with: " ") }.joined(
            separator: "\n")
        let result = try Subprocess.run(
            python, ["-c", script, Self.conformance.appendingPathComponent("verification-request.schema.json").path],
            stdin: Data((input + "\n").utf8))
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        let verdicts = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(verdicts.count, cases.count)
        let service = VerificationService(requestTrust: .acceptedAndReported, appleRootsDirectory: try Self.installedRoots())
        for (testCase, verdict) in zip(cases, verdicts) {
            let answer = service.verify(json: testCase.request)
            let shapeRefused = answer.json.contains("\"code\":\"request.")
            XCTAssertEqual(verdict == "valid", !shapeRefused, "\(testCase.name): schema says \(verdict), service \(answer.json)")
        }
    }
}
