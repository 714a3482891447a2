import Foundation
import XCTest

/// A seeded PRNG (SplitMix64) so every randomised test is reproducible from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}

/// Locations of the repository and its committed vectors and fixtures.
public enum TestPaths {
    /// The package root (…/Tests/SigilTestSupport/Support.swift → three levels up).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func vectors(_ relative: String) -> URL {
        repositoryRoot.appendingPathComponent("Vectors").appendingPathComponent(relative)
    }

    public static func fixtures(_ target: String, _ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests").appendingPathComponent(target)
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    /// An executable product built beside the test bundle (the test target depends on it, so
    /// SwiftPM builds it in the same configuration), or an XCTSkip saying it is missing.
    public static func builtProduct(_ name: String, besideBundleOf type: AnyClass) throws -> URL {
        let bundle = Bundle(for: type).bundleURL
        let candidates = [bundle.appendingPathComponent(name), bundle.deletingLastPathComponent().appendingPathComponent(name)]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("the \(name) executable was not found beside \(bundle.path)")
        }
        return found
    }

    /// Apple's PKI certificates, real App Store signed data and receipts, and the App Store
    /// Server Library test resources the tests read: third-party data, never committed here. The
    /// directory comes from `Scripts/vectors-dir apple`, the project's one third-party data path
    /// (`SIGIL_APPLE_VECTORS`, else the shared vectors folder beside the repository, else
    /// `Vectors/third-party/apple` placed by `Scripts/get-vectors`); the PROVENANCE files and the
    /// manifest are in `Vectors/third-party-manifest/`.
    public static func requireAppleVectors() throws -> URL { try thirdParty("apple") }

    /// Apple's sample App Attest attestation object and the App Attest root (`Scripts/vectors-dir appattest`).
    public static func requireAppAttestVectors() throws -> URL { try thirdParty("appattest") }

    /// Real Apple Pay payment tokens, their published test merchant keys and expected values
    /// (`Scripts/vectors-dir applepay`).
    public static func requireApplePayVectors() throws -> URL { try thirdParty("applepay") }

    /// ISO/IEC 18013-5 Annex D's worked mdoc example: DeviceResponse, session transcript, keys,
    /// document signer, IACA root, reader side (`Scripts/vectors-dir mdoc`; the files are under
    /// `iso18013-5-annex-d/`).
    public static func requireMdocVectors() throws -> URL { try thirdParty("mdoc") }

    /// The directory of a third-party data set, or `MissingVectors` (a failure, never a skip) with
    /// the helper's message, which names `Scripts/get-vectors`. Resolved once per process and set.
    public static func thirdParty(_ set: String) throws -> URL {
        let result = ThirdPartyDirectories.shared.resolve(set)
        switch result {
        case .success(let url): return url
        case .failure(let error): throw error
        }
    }

    /// The third-party data is missing: run `Scripts/get-vectors`.
    public struct MissingVectors: Error, CustomStringConvertible {
        public let message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }
}

/// Runs `Scripts/vectors-dir SET` once per set and keeps its answer.
private final class ThirdPartyDirectories: @unchecked Sendable {
    static let shared = ThirdPartyDirectories()
    private let lock = NSLock()
    private var resolved: [String: Result<URL, TestPaths.MissingVectors>] = [:]

    func resolve(_ set: String) -> Result<URL, TestPaths.MissingVectors> {
        lock.lock()
        defer { lock.unlock() }
        if let known = resolved[set] { return known }
        let answer = Self.run(set)
        resolved[set] = answer
        return answer
    }

    private static func run(_ set: String) -> Result<URL, TestPaths.MissingVectors> {
        let script = TestPaths.repositoryRoot.appendingPathComponent("Scripts/vectors-dir").path
        let result: Subprocess.Result
        do {
            result = try Subprocess.run("/bin/bash", [script, set])
        } catch {
            return .failure(.init(message: "could not run \(script): \(error); run Scripts/get-vectors"))
        }
        let path = result.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !path.isEmpty else {
            let message = String(decoding: result.stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(.init(message: message.isEmpty ? "Scripts/vectors-dir \(set) failed; run Scripts/get-vectors" : message))
        }
        return .success(URL(fileURLWithPath: path, isDirectory: true))
    }
}

public enum Hex {
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex (even length, 0-9a-fA-F); returns nil otherwise.
    public static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = value(chars[i]), let lo = value(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}

/// Runs an external program (python3, openssl) as an independent peer.
public enum Subprocess {
    public struct Result {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data
        public var stdoutString: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Finds `name` on PATH.
    public static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, feeding `stdin`; collects both outputs. `environment`
    /// adds to (or replaces entries of) this process's environment.
    public static func run(
        _ executable: String, _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        // Write stdin and drain both outputs concurrently so no pipe fills up.
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data()
        nonisolated(unsafe) var err = Data()
        group.enter()
        DispatchQueue.global().async {
            out = outPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            err = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        inPipe.fileHandleForWriting.write(stdin)
        try inPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, stdout: out, stderr: err)
    }

    /// The first Python 3 that imports every module in `modules`: the one on PATH (pip), else the
    /// system's (`/usr/bin/python3`, where Debian's python3-jwt / python3-cryptography, which the
    /// README's set-up line installs, live); nil when neither does.
    public static func python(importing modules: [String]) -> String? {
        let candidates = [which("python3"), "/usr/bin/python3"].compactMap { $0 }
        return candidates.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate)
                && (try? run(candidate, ["-c", "import " + modules.joined(separator: ", ")]))?.status == 0
        }
    }

    /// The Python of the PyPI peers (`Scripts/get-peers`: pymdoccbor, pycose, cbor2, pyhpke,
    /// pyca/cryptography with HPKE), or an error — a failure, never a skip — that names the script.
    public static func peerPython() throws -> String {
        let path = TestPaths.repositoryRoot.appendingPathComponent(".build-peers/venv/bin/python3").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestPaths.MissingVectors(
                message: "the PyPI peers are not installed: run Scripts/get-peers (the README's set-up line does)")
        }
        return path
    }

    /// The path of `name`, or an XCTSkip that says it is missing.
    public static func require(_ name: String) throws -> String {
        guard let path = which(name) else { throw XCTSkip("\(name) is not installed; this cross-check needs it") }
        return path
    }
}

/// A Python script serving on loopback for a test: started with `arguments`, it prints its port
/// on the first line and serves until its standard input closes. A missing python3 or a script
/// that does not start is an error (these servers are how requirements are shown, so no skip).
public final class LoopbackScript {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    let process = Process()
    let input = Pipe()
    public let port: Int

    public init(script: URL, arguments: [String]) throws {
        guard let python = Subprocess.which("python3") else {
            throw StartError(description: "python3 is not installed; the loopback server needs it")
        }
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path] + arguments
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw StartError(
                description:
                    "\(script.lastPathComponent) did not start: it printed \"\(String(decoding: line, as: UTF8.self))\" instead of a port")
        }
        self.port = port
    }

    /// Closes the script's standard input, terminates it if still running, and waits.
    public func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
