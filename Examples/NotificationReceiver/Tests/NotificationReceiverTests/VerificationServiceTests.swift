import AsyncHTTPClient
import Foundation
import NotificationReceiverKit
import SigilHTTP
import XCTest

/// Issue 37's HTTP door: the stateless `verification-service` process on loopback, driven with the
/// conformance file (Conformance/cases.json: status and answer, the route writing SigilService's
/// answer unchanged), the README's command and curl lines, the OpenAPI document against real answers
/// (python3-jsonschema), and the HTTP failures: wrong content type (415), 2 MiB over the limit
/// (413), a stalled body (408 after the body timeout), the process still serving after each.
final class VerificationServiceTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `verification-service` with `arguments` on a free loopback port.
    final class ServiceProcess: @unchecked Sendable {
        let process = Process()
        let port: Int
        var base: String { "http://127.0.0.1:\(port)" }

        init(_ arguments: [String], testCase: AnyClass) throws {
            // Apple's roots that are not built in, in the roots directory the service reads
            // (SIGIL_ROOTS): receipts and attestations without request roots (issue 46).
            var environment = ProcessInfo.processInfo.environment
            environment["SIGIL_ROOTS"] = try Self.installedRoots()
            port = try LoopbackProcess.start(
                process, executable: "verification-service", arguments: arguments, testCase: testCase, environment: environment)
        }

        /// A fresh directory holding Conformance/cases.json's installedRoots (conformance.py roots).
        static func installedRoots() throws -> String {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-roots-\(UUID().uuidString)").path
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = [
                "python3", VerificationServiceTests.repository.appendingPathComponent("Conformance/conformance.py").path, "roots",
                directory,
            ]
            try python.run()
            python.waitUntilExit()
            guard python.terminationStatus == 0 else { throw HarnessError("conformance.py roots \(directory) failed") }
            return directory
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    func run(_ executable: String, _ arguments: [String], in folder: URL? = nil, input: Data = Data()) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let output = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = inputPipe
        try process.run()
        inputPipe.fileHandleForWriting.write(input)
        try inputPipe.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The conformance requests (files placed by Conformance/conformance.py) and expected statuses.
    func conformanceRequests() throws -> [(request: [UInt8], status: Int)] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("requests-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try run(
            "/usr/bin/env", ["python3", Self.repository.appendingPathComponent("Conformance/conformance.py").path, "requests", file.path])
        XCTAssertEqual(status, 0, output)
        let lines = try Data(contentsOf: file).split(separator: 0x0A).map { Array($0) }
        let cases = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.repository.appendingPathComponent("Conformance/cases.json")))
        let statuses = try XCTUnwrap(
            ((cases as? [String: Any])?["cases"] as? [[String: Any]])?.map { ($0["expect"] as? [String: Any])?["status"] as? Int ?? 0 })
        XCTAssertEqual(lines.count, statuses.count)
        return Array(zip(lines, statuses)).map { (request: $0.0, status: $0.1) }
    }

    func checkConformanceAndOpenAPI(service: ServiceProcess, sender: Sender) async throws {
        // Four at a time (the service answers concurrently; a debug build verifies slowly).
        let requests = try conformanceRequests()
        let responses = try await withThrowingTaskGroup(of: (Int, Int, String).self) { group in
            var out: [(Int, Int, String)] = []
            for (index, (request, _)) in requests.enumerated() {
                if index >= 4, let done = try await group.next() { out.append(done) }
                group.addTask {
                    let response = try await sender.post(url: service.base + "/v1/verify", request)
                    return (index, response.status, String(decoding: response.body, as: UTF8.self))
                }
            }
            for try await response in group { out.append(response) }
            return out.sorted { $0.0 < $1.0 }
        }
        var answers: [String] = []
        var pairs: [[Any]] = []
        for ((_, status, body), (_, expected)) in zip(responses, requests) {
            XCTAssertEqual(status, expected, body)
            answers.append(body)
            pairs.append([status, body])
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data((answers.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("answers.jsonl"))
        let (checked, report) = try run(
            "/usr/bin/env",
            [
                "python3", Self.repository.appendingPathComponent("Conformance/conformance.py").path, "check",
                folder.appendingPathComponent("answers.jsonl").path,
            ])
        XCTAssertEqual(checked, 0, report)

        // The OpenAPI document: 3.1, its request schema the conformance schema, every real answer
        // valid under the response schema of its status, the health answer too.
        let openAPI = try await sender.get(service.base + "/v1/openapi.json")
        XCTAssertEqual(openAPI.status, 200)
        let health = try await sender.get(service.base + "/health")
        pairs.append([health.status, String(decoding: health.body, as: UTF8.self)])
        let input: [String: Any] = ["openapi": String(decoding: openAPI.body, as: UTF8.self), "answers": pairs]
        let script = """
            import json, sys, jsonschema
            data = json.load(sys.stdin)
            document = json.loads(data["openapi"])
            assert document["openapi"].startswith("3.1"), document["openapi"]
            schema = json.load(open(sys.argv[1]))
            request = json.loads(json.dumps(document["components"]["schemas"]["VerificationRequest"]).replace('"#/components/schemas/VerificationRequest/$defs/', '"#/$defs/'))
            expected = {k: v for k, v in schema.items() if k not in ("$schema", "$id")}
            assert request == expected, "the OpenAPI request schema is not Conformance/verification-request.schema.json"
            paths = {"/v1/verify": "post", "/health": "get"}
            for status, body in data["answers"]:
                path = "/health" if '"status":"ok"' in body else "/v1/verify"
                ref = document["paths"][path][paths[path]]["responses"][str(status)]["content"]["application/json"]["schema"]["$ref"]
                validator = jsonschema.Draft202012Validator(dict(document, **{"$ref": ref}))
                errors = list(validator.iter_errors(json.loads(body)))
                assert not errors, "%s %s: %s" % (status, body[:200], errors[0].message)
            print("openapi: %d answers valid" % len(data["answers"]))
            """
        let (validated, output) = try run(
            "/usr/bin/env",
            ["python3", "-c", script, Self.repository.appendingPathComponent("Conformance/verification-request.schema.json").path],
            input: try JSONSerialization.data(withJSONObject: input))
        XCTAssertEqual(validated, 0, output)
    }

    /// 415, 413 (2 MiB against 1 MiB), 400 for a truncated JSON body, 408 for a body that stalls,
    /// and the process serving after each.
    func testHTTPFailuresAndTheServiceKeepsServing() async throws {
        let service = try ServiceProcess(["--port", "0", "--body-timeout", "1"], testCase: Self.self)
        defer { service.stop() }
        let script = """
            import socket, sys, time
            port = int(sys.argv[1])
            def exchange(head, body, wait=10):
                s = socket.create_connection(("127.0.0.1", port))
                s.settimeout(wait)
                s.sendall(head + body)
                start = time.time()
                data = b""
                try:
                    while b"\\r\\n\\r\\n" not in data or len(data) < data.find(b"\\r\\n\\r\\n") + 4 + int((data.split(b"content-length: ")[1:] or [b"0"])[0].split(b"\\r\\n")[0] or 0):
                        chunk = s.recv(65536)
                        if not chunk: break
                        data += chunk
                except socket.timeout:
                    pass
                s.close()
                return data.decode("utf-8", "replace"), time.time() - start
            def post(body, content_type="application/json", length=None):
                head = ("POST /v1/verify HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: %s\\r\\nContent-Length: %d\\r\\n\\r\\n" % (content_type, len(body) if length is None else length)).encode()
                return exchange(head, body)
            answer, _ = post(b'{"data": "x"}', "text/plain")
            print("415" if answer.startswith("HTTP/1.1 415") and '"code":"http.unsupportedMediaType"' in answer else "FAIL 415 " + answer[:300])
            answer, _ = post(b'{"data": "' + b"A" * (2 << 20) + b'"}')
            print("413" if answer.startswith("HTTP/1.1 413") and '"code":"request.tooLarge"' in answer else "FAIL 413 " + answer[:300])
            answer, _ = post(b'{"data": "eyJhbGciOiJFUzI1NiJ9.e')
            print("400" if answer.startswith("HTTP/1.1 400") and '"code":"request.invalidJSON"' in answer else "FAIL 400 " + answer[:300])
            answer, elapsed = post(b'{"data": "', length=1000)
            print("408" if answer.startswith("HTTP/1.1 408") and '"code":"http.requestTimeout"' in answer and 0.8 < elapsed < 5 else "FAIL 408 %.1f s %s" % (elapsed, answer[:300]))
            answer, _ = exchange(b"GET /health HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", b"")
            print("health" if answer.startswith("HTTP/1.1 200") and '"status":"ok"' in answer else "FAIL health " + answer[:300])
            """
        let (status, output) = try run("/usr/bin/env", ["python3", "-c", script, String(service.port)])
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output.split(separator: "\n"), ["415", "413", "400", "408", "health"], output)
    }

    /// The README's start command (on the line after `<!-- service-command -->`'s fence) names this
    /// executable and its default 127.0.0.1:8080; the service answers /health within 2 s of start;
    /// each curl line of the README (after `<!-- service-curl -->`) runs against it and answers
    /// valid, its request files made from the conformance file's cases; then the same process
    /// answers the whole conformance file, and its OpenAPI document describes the answers (one
    /// process: a debug build pays each key's first use once).
    func testREADMECommandCurlExamplesConformanceFileAndOpenAPI() async throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        func block(after marker: String) throws -> [String] {
            let rest = try XCTUnwrap(readme.range(of: marker + "\n```sh\n")).upperBound
            let end = try XCTUnwrap(readme[rest...].range(of: "\n```")).lowerBound
            return readme[rest..<end].split(separator: "\n").map(String.init)
        }
        let command = try XCTUnwrap(try block(after: "<!-- service-command -->").first)
        XCTAssertTrue(command.hasSuffix("verification-service"), command)
        let started = Date()
        let service = try ServiceProcess([], testCase: Self.self)  // the defaults, as the command runs it
        defer { service.stop() }
        XCTAssertEqual(service.port, 8080)
        let sender = Sender()
        let health = try? await sender.get("http://127.0.0.1:8080/health")
        await sender.shutdown()
        XCTAssertEqual(health?.status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)

        // Request files from the conformance cases, by name.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let requests = try conformanceRequests().map(\.request)
        let cases = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.repository.appendingPathComponent("Conformance/cases.json")))
        let names = try XCTUnwrap(((cases as? [String: Any])?["cases"] as? [[String: Any]])?.map { $0["name"] as? String ?? "" })
        let files = [
            "transaction.json": "real Sandbox transaction, bundle id and environment enforced",
            "renewal-info.json": "real renewal info, kind named",
            "notification.json": "real DID_RENEW notification, kind told by its members",
            "receipt.json": "real production receipt, bundle id enforced",
            "attestation.json": "real device attestation (development), the App Attest root pinned",
            "assertion.json": "real device assertion (counter 2) with the attested key",
        ]
        for (file, name) in files {
            let index = try XCTUnwrap(names.firstIndex(of: name), name)
            try Data(requests[index]).write(to: folder.appendingPathComponent(file))
        }
        let curl = try block(after: "<!-- service-curl -->")
        XCTAssertGreaterThanOrEqual(curl.count, files.count)
        for line in curl {
            let (status, output) = try run("/bin/bash", ["-c", line], in: folder)
            XCTAssertEqual(status, 0, "\(line): \(output)")
            XCTAssertTrue(output.hasPrefix("{\"valid\":true,") || output.hasPrefix("{\"status\":\"ok\""), "\(line): \(output.prefix(300))")
        }
        for file in files.keys { XCTAssertTrue(curl.contains { $0.contains("@" + file) }, "README has no curl line for \(file)") }

        let conformanceSender = Sender()
        do {
            try await checkConformanceAndOpenAPI(service: service, sender: conformanceSender)
        } catch {
            await conformanceSender.shutdown()
            throw error
        }
        await conformanceSender.shutdown()
    }

    /// The notification receiver serves POST /v1/verify and /v1/openapi.json too (one deployment):
    /// the routes answer as the stateless service's do (the verification paths themselves are
    /// exercised above, in process and over HTTP).
    func testTheNotificationReceiverServesVerifyToo() async throws {
        let receiver = try startReceiver("verify")
        defer { receiver.stop() }
        let sender = Sender()
        let refused = try? await sender.post(
            url: receiver.baseURL + "/v1/verify", Array(#"{"kind":"transaction","data":"not.a.jws"}"#.utf8))
        let malformed = try? await sender.post(url: receiver.baseURL + "/v1/verify", Array(#"{"data":"x","colour":1}"#.utf8))
        let openAPI = try? await sender.get(receiver.baseURL + "/v1/openapi.json")
        // Kind mdoc without --mdoc-iaca: no roots to judge it by (501), never a verdict.
        let mdoc = try? await sender.post(
            url: receiver.baseURL + "/v1/verify", Array(#"{"kind":"mdoc","data":"oA==","sessionTranscript":"gA=="}"#.utf8))
        await sender.shutdown()
        XCTAssertEqual(mdoc?.status, 501)
        XCTAssertEqual((mdoc?.json["error"] as? [String: Any])?["code"] as? String, "service.notConfigured")
        XCTAssertEqual(refused?.status, 422)
        XCTAssertEqual((refused?.json["error"] as? [String: Any])?["code"] as? String, "appstore.INVALID_JWT_FORMAT")
        XCTAssertEqual(malformed?.status, 400)
        XCTAssertEqual((malformed?.json["error"] as? [String: Any])?["code"] as? String, "request.unknownMember")
        XCTAssertEqual(openAPI?.status, 200)
        XCTAssertEqual(openAPI?.json["openapi"] as? String, "3.1.0")
    }

    /// Issue 46: verification-service accepts and reports a request's own roots by default (trust
    /// request-roots, appleRoot not enforced: the request then fails on its chain here), and
    /// refuses them with --refuse-request-trust (403, request.trustRefused).
    func testVerificationServiceRefusesRequestTrustWhenAsked() async throws {
        let signer = try Signer.shared.get()
        let root = try Data(contentsOf: signer.rootFile).base64EncodedString()
        let request = Array(try JSONSerialization.data(withJSONObject: ["kind": "transaction", "data": "x.y.z", "roots": [root]]))
        for (arguments, status, code) in [
            (["--port", "0"], 422, "appstore.INVALID_JWT_FORMAT"),
            (["--port", "0", "--refuse-request-trust"], 403, "request.trustRefused"),
        ] {
            let service = try ServiceProcess(arguments, testCase: Self.self)
            defer { service.stop() }
            let sender = Sender()
            let response = try? await sender.post(url: service.base + "/v1/verify", request)
            await sender.shutdown()
            XCTAssertEqual(response?.status, status, "\(arguments)")
            XCTAssertEqual((response?.json["error"] as? [String: Any])?["code"] as? String, code, "\(arguments)")
        }
    }

    /// Issue 49: kind mdoc over HTTP at a service that takes no trust from requests: the IACA root
    /// given with --mdoc-iaca verifies ISO/IEC 18013-5 Annex D (trust iaca-roots), the same
    /// root in the request passes as one of the service's own, and a request bringing any other
    /// root is refused before anything is verified (403).
    func testVerificationServiceTrustsOnlyItsConfiguredIACARoots() async throws {
        let annexD = try ApplePayServiceTests.vectorsDirectory("mdoc", holding: "iso18013-5-annex-d/iaca-root.der")
            .appendingPathComponent("iso18013-5-annex-d")
        func base64(_ name: String) throws -> String { try Data(contentsOf: annexD.appendingPathComponent(name)).base64EncodedString() }
        let signer = try Signer.shared.get()
        let request: [String: Any] = [
            "kind": "mdoc", "data": try base64("device-response.cbor"), "sessionTranscript": try base64("session-transcript-bytes.cbor"),
            "acceptUnverifiedDeviceMAC": true, "at": 1_609_459_200,
        ]
        let service = try ServiceProcess(
            ["--port", "0", "--refuse-request-trust", "--mdoc-iaca", annexD.appendingPathComponent("iaca-root.der").path],
            testCase: Self.self)
        defer { service.stop() }
        let sender = Sender()
        var withOwnRoot = request
        withOwnRoot["roots"] = [try base64("iaca-root.der")]
        var withOtherRoot = request
        withOtherRoot["roots"] = [try Data(contentsOf: signer.rootFile).base64EncodedString()]
        let configured = try? await sender.post(
            url: service.base + "/v1/verify", Array(try JSONSerialization.data(withJSONObject: request)))
        let own = try? await sender.post(url: service.base + "/v1/verify", Array(try JSONSerialization.data(withJSONObject: withOwnRoot)))
        let other = try? await sender.post(
            url: service.base + "/v1/verify", Array(try JSONSerialization.data(withJSONObject: withOtherRoot)))
        await sender.shutdown()
        for response in [configured, own] {
            XCTAssertEqual(response?.status, 200)
            XCTAssertEqual(response?.json["trust"] as? String, "iaca-roots")
            XCTAssertEqual(response?.json["notEnforced"] as? [String], ["deviceAuthentication", "at"])
        }
        XCTAssertEqual(other?.status, 403)
        XCTAssertEqual((other?.json["error"] as? [String: Any])?["code"] as? String, "request.trustRefused")
    }

    /// Issue 46: the notification receiver refuses a request's own trust anchors by default (403,
    /// request.trustRefused): its test root given in `roots`, and Xcode's carried certificate.
    func testTheNotificationReceiverRefusesRequestTrust() async throws {
        let signer = try Signer.shared.get()
        let receiver = try startReceiver("trust")
        defer { receiver.stop() }
        let root = try Data(contentsOf: signer.rootFile)
        let rootText = root.base64EncodedString()  // DER
        let sender = Sender()
        var answers: [(Int, String?)] = []
        for request in [
            ["kind": "transaction", "data": "x.y.z", "roots": [rootText]],
            ["kind": "transaction", "data": "x.y.z", "environments": ["Xcode"]],
        ] as [[String: Any]] {
            let response = try? await sender.post(
                url: receiver.baseURL + "/v1/verify", Array(try JSONSerialization.data(withJSONObject: request)))
            answers.append((response?.status ?? 0, (response?.json["error"] as? [String: Any])?["code"] as? String))
        }
        await sender.shutdown()
        for (status, code) in answers {
            XCTAssertEqual(status, 403)
            XCTAssertEqual(code, "request.trustRefused")
        }
    }

    /// The notification receiver's kind mdoc under its own --mdoc-iaca roots: Annex D verifies
    /// (trust iaca-roots) and a request bringing another root is refused (403), as at
    /// verification-service; the receiver takes no trust from requests.
    func testTheNotificationReceiverTrustsItsConfiguredIACARoots() async throws {
        let annexD = try ApplePayServiceTests.vectorsDirectory("mdoc", holding: "iso18013-5-annex-d/iaca-root.der")
            .appendingPathComponent("iso18013-5-annex-d")
        func base64(_ name: String) throws -> String { try Data(contentsOf: annexD.appendingPathComponent(name)).base64EncodedString() }
        let signer = try Signer.shared.get()
        let receiver = try startReceiver("mdoc", ["--mdoc-iaca", annexD.appendingPathComponent("iaca-root.der").path])
        defer { receiver.stop() }
        let request: [String: Any] = [
            "kind": "mdoc", "data": try base64("device-response.cbor"), "sessionTranscript": try base64("session-transcript-bytes.cbor"),
            "acceptUnverifiedDeviceMAC": true, "at": 1_609_459_200,
        ]
        var withOtherRoot = request
        withOtherRoot["roots"] = [try Data(contentsOf: signer.rootFile).base64EncodedString()]
        let sender = Sender()
        let configured = try? await sender.post(
            url: receiver.baseURL + "/v1/verify", Array(try JSONSerialization.data(withJSONObject: request)))
        let other = try? await sender.post(
            url: receiver.baseURL + "/v1/verify", Array(try JSONSerialization.data(withJSONObject: withOtherRoot)))
        await sender.shutdown()
        XCTAssertEqual(configured?.status, 200)
        XCTAssertEqual(configured?.json["trust"] as? String, "iaca-roots")
        XCTAssertEqual(configured?.json["notEnforced"] as? [String], ["deviceAuthentication", "at"])
        XCTAssertEqual(other?.status, 403)
        XCTAssertEqual((other?.json["error"] as? [String: Any])?["code"] as? String, "request.trustRefused")
    }

    /// A notification receiver for the shared signer's app (Sandbox) on a throwaway SQLite file
    /// (removed when the receiver stops), with `extra` arguments.
    private func startReceiver(_ name: String, _ extra: [String] = []) throws -> ReceiverProcess {
        let signer = try Signer.shared.get()
        let sqlite = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite")
        addTeardownBlock { try? FileManager.default.removeItem(at: sqlite) }
        return try ReceiverProcess(
            arguments: [
                "--bundle-id", signer.bundleId, "--app-apple-id", "\(signer.appAppleId)", "--environment", "Sandbox",
                "--root-certificate", signer.rootFile.path, "--sqlite", sqlite.path,
            ] + extra, testCase: Self.self)
    }
}
