import Foundation

/// Operations per second of `openssl speed -evp <algorithm>` on `bytes`-byte inputs, run for
/// `seconds` (whole seconds, at least one) with `environment` added to this process's, or nil when
/// the `openssl` CLI is missing or its output has no figure. `openssl speed` reports thousands of
/// bytes per second; one operation is one input of `bytes` bytes.
///
/// With `OPENSSL_ia32cap=":~0x20000000"` OpenSSL believes the CPU has no SHA extensions (bit 29 of
/// CPUID.(EAX=7,ECX=0):EBX, masked) and runs its AVX2 + BMI2 SHA-256 code: the reference for
/// Sigil's AVX2 kernel on a CPU that has the SHA extensions.
func opensslSpeed(_ algorithm: String, bytes: Int, seconds: Double, environment: [String: String] = [:]) -> Double? {
    let candidates = ["/usr/bin/openssl", "/usr/local/bin/openssl"]
    guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["speed", "-seconds", String(max(1, Int(seconds.rounded()))), "-evp", algorithm, "-bytes", String(bytes)]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    // The last line reads "sha256   407578.89k": thousands of bytes per second.
    let text = String(decoding: data, as: UTF8.self)
    guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix(algorithm) }),
        let field = line.split(separator: " ").last, field.hasSuffix("k"),
        let kilobytes = Double(field.dropLast())
    else { return nil }
    return kilobytes * 1000 / Double(bytes)
}

/// Verifications per second of `openssl speed rsa<bits>` run for `seconds` (whole seconds, at least
/// one), or nil when the `openssl` CLI is missing or its output has no figure. Its line reads
/// "rsa 2048 bits 0.000950s 0.000028s 1053.0 35407.5": the last figure is verify/s.
func opensslSpeedRSAVerify(bits: Int, seconds: Double) -> Double? {
    let candidates = ["/usr/bin/openssl", "/usr/local/bin/openssl"]
    guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["speed", "-seconds", String(max(1, Int(seconds.rounded()))), "rsa\(bits)"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("rsa \(bits) bits") }),
        let field = line.split(separator: " ").last, let verifies = Double(field)
    else { return nil }
    return verifies
}
