import ArgumentParser
import Foundation
import SigilASN1
import SigilBase
import SigilCipher
import SigilCore

/// The default command: what this build can do, and a self-check on embedded known-answer data.
struct Overview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overview",
        abstract: "Print what this build can do and run its self-check on embedded data (the default).")

    @Flag(help: "Print the report as JSON.")
    var json = false

    struct Check {
        let name: String
        let spec: String
        let passed: Bool
        let detail: String
    }

    /// What this build can do: each command the build registers under `sigil`, with its abstract
    /// (read from the commands' own configurations, so the list cannot drift from the build).
    static var commands: [(name: String, abstract: String)] {
        Sigil.configuration.subcommands.filter { $0 != Overview.self }.map { ($0._commandName, $0.configuration.abstract) }
    }

    func run() {
        let checks = Overview.selfCheck()
        let allPassed = checks.allSatisfy(\.passed)
        if json {
            Output.printJSON([
                "name": "sigil",
                "version": SigilVersion.current,
                "available": Overview.commands.map { ["command": $0.name, "abstract": $0.abstract] },
                "commands": Overview.commands.map(\.name),
                "selfCheck": checks.map { ["name": $0.name, "spec": $0.spec, "passed": $0.passed, "detail": $0.detail] },
                "passed": allPassed,
                "digestBackend": [
                    "sha256": DigestBackend.current.rawValue,
                    "accelerationAvailable": DigestBackend.accelerated?.rawValue ?? "none",
                    "sha384sha512": DigestBackend.current(for: .sha512).rawValue,
                    "sha384sha512AccelerationAvailable": DigestBackend.accelerated(for: .sha512)?.rawValue ?? "none",
                    "portableForced": DigestBackend.forcePortable,
                    "forced": DigestBackend.forced?.environmentName ?? "none",
                    "sha256Available": DigestBackend.available(for: .sha256).map(\.rawValue),
                ] as [String: Any],
                "cipherBackend": [
                    "current": CipherBackend.current.rawValue, "forced": CipherBackend.forced?.environmentName ?? "none",
                    "available": CipherBackend.available.map(\.rawValue),
                ] as [String: Any],
            ])
        } else {
            print(
                "sigil \(SigilVersion.current): pure-Swift crypto and ASN.1 for Apple's App Store and account APIs "
                    + "(GMP is the only C dependency)\n")
            print("Available in this build (sigil help <command>):")
            let width = Overview.commands.map(\.name.count).max() ?? 0
            for command in Overview.commands {
                print("  \(command.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(command.abstract)")
            }
            print("\nSHA-256 runs on: \(Overview.digestBackendLine(for: .sha256))")
            print("SHA-384 and SHA-512 run on: \(Overview.digestBackendLine(for: .sha512)); SHA-1 on portable Swift")
            print(
                "AES-GCM runs on: \(CipherBackend.current.rawValue)"
                    + (CipherBackend.forced.map { ", forced (SIGIL_CIPHER_BACKEND=\($0.environmentName))" } ?? ""))
            print("\nSelf-check on embedded known-answer data:")
            for check in checks {
                print("  [\(check.passed ? "pass" : "FAIL")] \(check.name) (\(check.spec)): \(check.detail)")
            }
            print("\n\(checks.filter(\.passed).count) of \(checks.count) checks passed")
        }
        if !allPassed { Foundation.exit(1) }
    }

    /// Which compression runs for `algorithm` (SHA-256, or the SHA-512 family), and why (the CPU probes, and
    /// \(DigestBackend.selectionEnvironmentVariable) or \(DigestBackend.environmentVariable)).
    static func digestBackendLine(for algorithm: HashAlgorithm) -> String {
        let current = DigestBackend.current(for: algorithm)
        let others = DigestBackend.available(for: algorithm).filter { $0 != current && $0 != .portable }
        guard let forced = DigestBackend.forced else {
            if current == .portable {
                #if arch(arm64)
                let lacking = algorithm == .sha256 ? "ARMv8 SHA-256 instructions" : "ARMv8.2 SHA-512 instructions"
                #else
                let lacking = algorithm == .sha256 ? "SHA extensions nor AVX2 and BMI2" : "AVX2 and BMI2"
                #endif
                return "\(current.rawValue) (this CPU has no \(lacking))"
            }
            let also = others.isEmpty ? "" : " (the CPU also has \(others.map(\.rawValue).joined(separator: ", ")))"
            return "\(current.rawValue)\(also)"
        }
        let shorthand = forced == .portable ? " or \(DigestBackend.environmentVariable)=1" : ""
        let why = ", forced (\(DigestBackend.selectionEnvironmentVariable)=\(forced.environmentName)\(shorthand))"
        let fallback = forced != current ? " (the forced path does not exist for it here)" : ""
        let has = others.isEmpty ? "" : " (the CPU has \(others.map(\.rawValue).joined(separator: ", ")))"
        return "\(current.rawValue)\(why)\(fallback)\(has)"
    }

    static func selfCheck() -> [Check] {
        var checks: [Check] = []
        func digestCheck(_ name: String, _ spec: String, _ actual: [UInt8], _ expected: String) {
            let hex = Output.hex(actual)
            checks.append(Check(name: name, spec: spec, passed: hex == expected, detail: hex))
        }
        let abc = Array("abc".utf8)
        // FIPS 180-4 examples (NIST "Examples with Intermediate Values", one-block message "abc").
        digestCheck("SHA-1(\"abc\")", "FIPS 180-4", SHA1.hash(abc), "a9993e364706816aba3e25717850c26c9cd0d89d")
        digestCheck(
            "SHA-256(\"abc\")", "FIPS 180-4", SHA256.hash(abc),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        digestCheck(
            "SHA-384(\"abc\")", "FIPS 180-4", SHA384.hash(abc),
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        digestCheck(
            "SHA-512(\"abc\")", "FIPS 180-4", SHA512.hash(abc),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        )
        var million = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { million.update(chunk) }
        digestCheck(
            "SHA-256(10^6 × \"a\"), streamed", "FIPS 180-4", million.finalize(),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        digestCheck(
            "HMAC-SHA-256 test case 2", "RFC 4231 §4.3",
            HMAC<SHA256>.authenticationCode(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")

        // RFC 6979 A.2.5: the P-256 / SHA-256 / "sample" signature, reproduced byte for byte and verified.
        let rfcKey: [UInt8] = [
            0xC9, 0xAF, 0xA9, 0xD8, 0x45, 0xBA, 0x75, 0x16, 0x6B, 0x5C, 0x21, 0x57, 0x67, 0xB1, 0xD6, 0x93,
            0x4E, 0x50, 0xC3, 0xDB, 0x36, 0xE8, 0x9B, 0x12, 0x7B, 0x8A, 0x62, 0x2B, 0x12, 0x0F, 0x67, 0x21,
        ]
        if let key = try? ECDSAPrivateKey(rawRepresentation: rfcKey, curve: .p256) {
            let signature = key.signature(for: Array("sample".utf8), hash: .sha256)
            let hex = Output.hex(signature.rawRepresentation)
            let expected =
                "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
                + "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"
            let verifies = key.publicKey.isValidSignatureVartime(signature, for: Array("sample".utf8), hash: .sha256)
            checks.append(
                Check(
                    name: "ECDSA P-256 deterministic signature of \"sample\"", spec: "RFC 6979 A.2.5",
                    passed: hex == expected && verifies, detail: "r‖s = \(hex.prefix(16))…, verifies: \(verifies)"))
        } else {
            checks.append(Check(name: "ECDSA P-256 deterministic signature", spec: "RFC 6979 A.2.5", passed: false, detail: "key rejected"))
        }

        // GMP: Fermat's little theorem for the Mersenne prime 2^127 − 1, and an inverse.
        let p = (BigNum(1) << 127) - BigNum(1)
        let fermat = (try? BigNum(3).power(p - BigNum(1), modulo: p)) == BigNum(1)
        let inverse = (try? BigNum(17).inverse(modulo: p)).flatMap { try? ($0 * BigNum(17)).mod(p) } == BigNum(1)
        checks.append(
            Check(
                name: "GMP: 3^(p−1) ≡ 1 and 17·17⁻¹ ≡ 1 mod 2^127−1", spec: "GMP mpz", passed: fermat && inverse,
                detail: fermat && inverse ? "identities hold" : "identity failed"))

        // DER strictness and BER relaxations on embedded encodings.
        let der: [UInt8] = [0x30, 0x0C, 0x02, 0x01, 0x2A, 0x01, 0x01, 0xFF, 0x06, 0x04, 0x2A, 0x86, 0x48, 0x86]
        let derOK =
            (try? DER.parse(der)).map { root -> Bool in
                var writer = DERWriter()
                writer.append(root)
                return writer.bytes == der
            } ?? false
        checks.append(
            Check(
                name: "DER parse and byte-identical re-encode", spec: "X.690 10", passed: derOK,
                detail: derOK ? "SEQUENCE { INTEGER 42, BOOLEAN TRUE, OID 1.2.840.6 } round-trips" : "failed"))
        let indefinite: [UInt8] = [0x30, 0x80, 0x05, 0x00, 0x00, 0x00]
        let derRejects = (try? DER.parse(indefinite)) == nil
        let berAccepts = (try? BER.parse(indefinite)) != nil
        checks.append(
            Check(
                name: "indefinite length: DER rejects, BER accepts", spec: "X.690 8.1.3.6, 10.1",
                passed: derRejects && berAccepts,
                detail: "DER \(derRejects ? "rejects" : "ACCEPTS"), BER \(berAccepts ? "accepts" : "REJECTS")"))
        let nonMinimal: [UInt8] = [0x02, 0x02, 0x00, 0x01]
        let integerRejected = (try? DER.parse(nonMinimal)).map { (try? ASN1Integer(node: $0)) == nil } ?? false
        checks.append(
            Check(
                name: "non-minimal INTEGER rejected", spec: "X.690 8.3.2", passed: integerRejected,
                detail: integerRejected ? "02 02 00 01 rejected" : "accepted"))
        return checks
    }
}
