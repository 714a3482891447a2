import Foundation
import SigilASN1
import SigilCore
import SigilReceipts
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilPKCS7

/// Hostile receipts: 50,000 seeded mutations of every real receipt, nesting bombs, huge declared
/// lengths and indefinite-length structures without an end: never a crash, always a typed error
/// (or a parse that verifies only if the signed bytes are intact).
final class ReceiptHostileInputTests: XCTestCase {
    private func receipts() throws -> [[UInt8]] {
        let shared = try TestPaths.requireAppleVectors()
        let files = [
            "real/receipts/tikhop-TPInAppReceipt/receipt-production",
            "real/receipts/tikhop-TPInAppReceipt/receipt-sandbox-g5",
            "real/receipts/tikhop-TPInAppReceipt/xcode-local/receipt-xcode",
            "library/swift/Tests/AppStoreServerLibraryTests/resources/xcode/xcode-app-receipt-with-transaction",
            "library/swift/Tests/AppStoreServerLibraryTests/resources/xcode/xcode-app-receipt-empty",
        ]
        return try files.map { file in
            let text = try String(contentsOf: shared.appendingPathComponent(file), encoding: .utf8)
            return Array(try XCTUnwrap(Data(base64Encoded: text, options: .ignoreUnknownCharacters)))
        }
    }

    func testFiftyThousandMutants() throws {
        let originals = try receipts()
        let incRoot = try Certificate(
            derEncoded: Array(
                try Data(
                    contentsOf: TestPaths.requireAppleVectors()
                        .appendingPathComponent("real/apple-pki/AppleIncRootCertificate.cer"))))
        let verifier = CMSSignedDataVerifier(trustedRoots: [incRoot])
        var rng = SeededGenerator(seed: 0x7EC3_1F7)
        var parsed = 0
        var payloads = 0
        var verified = 0
        for i in 0..<50_000 {
            let original = originals[i % originals.count]
            var bytes = original
            let position = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 5 {
            case 0: bytes[position] ^= UInt8(1 << (rng.next() % 8))
            case 1: bytes[position] = UInt8(truncatingIfNeeded: rng.next())
            case 2: bytes.removeSubrange(position...)
            case 3: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)
            default: bytes.remove(at: position)
            }
            guard bytes != original else { continue }
            let signed: CMSSignedData
            do { signed = try CMSSignedData(berEncoded: bytes) } catch { continue }  // a typed PKCS7Error by signature
            parsed += 1
            if let payload = signed.payload, (try? AppReceipt(payload: payload)) != nil { payloads += 1 }
            if i % originals.count < 2, let result = try? verifier.verify(signed, at: 1_708_709_236) {
                verified += 1
                XCTAssertEqual(result.chain.last, incRoot)
                // Only mutants whose content and signer info are intact can verify (e.g. a change in
                // an unsigned certificate copy): check the content is the original's.
                XCTAssertEqual(signed.content, try CMSSignedData(berEncoded: original).content)
            }
        }
        XCTAssertGreaterThan(parsed, 1000)
        print("receipt mutants: 50000 generated, \(parsed) parsed, \(payloads) payloads decoded, \(verified) verified")
    }

    func testBombsAndHugeLengths() {
        func refused(_ bytes: [UInt8], _ label: String) {
            XCTAssertThrowsError(try CMSSignedData(berEncoded: bytes), label) { XCTAssertTrue($0 is PKCS7Error, label) }
            XCTAssertThrowsError(try AppReceipt(payload: bytes), label) { XCTAssertTrue($0 is ReceiptError, label) }
        }
        // 100,000 nested indefinite-length SEQUENCEs (a nesting bomb) and definite ones.
        refused([UInt8](repeating: 0x30, count: 1) + Array([UInt8]([0x80, 0x30]).repeated(50_000)), "indefinite nesting bomb")
        var definite: [UInt8] = []
        for _ in 0..<2000 { definite = [0x30] + DERWriter.lengthOctetsForTest(definite.count) + definite }
        refused(definite, "definite nesting bomb")
        // Declared lengths far beyond the input.
        refused([0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x02, 0x01, 0x00], "2 GiB declared")
        refused([0x30, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "2^64 declared")
        refused([0x04, 0x84, 0x10, 0x00, 0x00, 0x00], "OCTET STRING of 256 MiB declared")
        // Indefinite lengths that never end.
        refused(
            [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x80, 0x30, 0x80], "no end-of-contents")
        refused([0x24, 0x80] + Array([UInt8]([0x04, 0x01, 0x41]).repeated(1000)), "constructed OCTET STRING without end")
        refused([], "empty")
    }
}

private extension Array {
    func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}

private extension DERWriter {
    static func lengthOctetsForTest(_ length: Int) -> [UInt8] {
        if length < 128 { return [UInt8(length)] }
        var bytes: [UInt8] = []
        var value = length
        while value > 0 {
            bytes.insert(UInt8(value & 0xFF), at: 0)
            value >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}

/// Memory stays proportional to the input: the process's peak resident set (VmHWM, reset through
/// /proc/self/clear_refs) grows by at most a small multiple of the input while hostile receipts
/// of growing size are parsed, whatever lengths they declare.
final class ReceiptMemoryBoundTests: XCTestCase {
    private func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
        }
        return nil
    }

    func testPeakMemoryProportionalToInput() throws {
        #if os(Linux)
        // On Linux (where Sigil is tested) this is required, not optional: a missing or read-only
        // clear_refs fails the test instead of leaving the memory bound unproven.
        XCTAssertTrue(FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs"), "/proc/self/clear_refs is not writable")
        XCTAssertNotNil(status("VmHWM"), "/proc/self/status has no VmHWM")
        guard FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs"), status("VmHWM") != nil else { return }
        #else
        throw XCTSkip("peak RSS is read from Linux's /proc/self/status (VmHWM, reset through clear_refs); this platform has neither")
        #endif
        for size in [64 << 10, 1 << 20, 4 << 20] {
            let inputs: [(String, [UInt8])] = [
                ("nested indefinite SEQUENCEs", Array([UInt8]([0x30, 0x80]).repeating(size / 2))),
                (
                    "SET OF empty SEQUENCEs",
                    [0x31, 0x84] + withUnsafeBytes(of: UInt32(size).bigEndian, Array.init)
                        + Array([UInt8]([0x30, 0x00]).repeating(size / 2))
                ),
                ("declared 2 GiB, short content", [0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0x04, count: size)),
                (
                    "constructed OCTET STRING segments",
                    [0x24, 0x80] + Array([UInt8]([0x04, 0x01, 0x41]).repeating(size / 3)) + [0x00, 0x00]
                ),
            ]
            for (label, input) in inputs {
                try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
                let before = status("VmRSS") ?? 0
                _ = try? CMSSignedData(berEncoded: input)
                _ = try? AppReceipt(payload: input)
                let peak = status("VmHWM") ?? 0
                let growth = max(0, peak - before)
                XCTAssertLessThan(growth, 64 * input.count + (32 << 20), "\(label), \(input.count) bytes: peak grew by \(growth)")
            }
        }
    }
}

private extension Array {
    func repeating(_ count: Int) -> [Element] {
        var out: [Element] = []
        out.reserveCapacity(self.count * count)
        for _ in 0..<count { out.append(contentsOf: self) }
        return out
    }
}
