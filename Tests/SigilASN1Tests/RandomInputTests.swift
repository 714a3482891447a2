import SigilASN1
import SigilTestSupport
import XCTest

/// Hostile input: seeded random byte strings, random TLV trees with corruption, and mutations of
/// the fixtures. Nothing may crash; every rejection must be an ASN1Error; every accepted input
/// must re-encode consistently and have every node decodable or rejected with an ASN1Error.
final class RandomInputTests: XCTestCase {
    private func exercise(_ input: [UInt8], counts: inout (parsed: Int, rejected: Int)) {
        for rules in [ASN1EncodingRules.distinguished, .basic] {
            do {
                let root = rules == .distinguished ? try DER.parse(input) : try BER.parse(input)
                counts.parsed += 1
                for node in allNodes(root) {
                    if let error = decodeAsTaggedType(node), !(error is ASN1Error) {
                        XCTFail("non-ASN1Error \(error)")
                    }
                }
                if rules == .distinguished {
                    // A DER parse re-encodes to exactly the input.
                    XCTAssertEqual(reencode(root), input)
                }
            } catch {
                counts.rejected += 1
            }
        }
    }

    /// 100,000 purely random byte strings of 0–48 bytes (first bytes biased to common tags so a
    /// fair share get past the identifier).
    func testRandomByteStrings() {
        var rng = SeededGenerator(seed: 0xA5_1)
        var counts = (parsed: 0, rejected: 0)
        let commonFirst: [UInt8] = [0x30, 0x31, 0x02, 0x04, 0x03, 0x06, 0x01, 0x05, 0x0C, 0x17, 0x18, 0xA0, 0x24, 0x80]
        for i in 0..<100_000 {
            var input = rng.bytes(Int.random(in: 0...48, using: &rng))
            if i % 2 == 0, !input.isEmpty { input[0] = commonFirst[Int.random(in: 0..<commonFirst.count, using: &rng)] }
            exercise(input, counts: &counts)
        }
        XCTAssertEqual(counts.parsed + counts.rejected, 200_000)
        XCTAssertGreaterThan(counts.parsed, 200, "some random inputs should be well-formed (seeded: 497)")
    }

    /// Random well-formed trees (DER and BER shapes), then corrupted: a flipped bit, a changed
    /// length octet, a truncation or an insertion.
    func testRandomTreesWithCorruption() {
        var rng = SeededGenerator(seed: 0xA5_2)
        var counts = (parsed: 0, rejected: 0)
        for _ in 0..<30_000 {
            var tree = randomTree(depth: 0, rng: &rng)
            switch Int.random(in: 0...4, using: &rng) {
            case 0 where !tree.isEmpty:
                tree[Int.random(in: 0..<tree.count, using: &rng)] ^= UInt8(1 << Int.random(in: 0...7, using: &rng))
            case 1 where !tree.isEmpty:
                tree[Int.random(in: 0..<tree.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            case 2 where !tree.isEmpty:
                tree.removeLast(Int.random(in: 1...tree.count, using: &rng))
            case 3:
                tree.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...tree.count, using: &rng))
            default:
                break
            }
            exercise(tree, counts: &counts)
        }
        XCTAssertGreaterThan(counts.parsed, 5000)
    }

    /// 20,000 mutations of each fixture class (bit flips, byte sets, truncations, length edits).
    func testFixtureMutations() throws {
        var rng = SeededGenerator(seed: 0xA5_3)
        let inputs = try (Fixtures.derNames + [Fixtures.berName]).map(Fixtures.bytes)
        var counts = (parsed: 0, rejected: 0)
        for i in 0..<20_000 {
            var input = inputs[i % inputs.count]
            let position = Int.random(in: 0..<input.count, using: &rng)
            switch i % 4 {
            case 0: input[position] ^= UInt8(1 << Int.random(in: 0...7, using: &rng))
            case 1: input[position] = [0x00, 0x7F, 0x80, 0x81, 0x82, 0x84, 0xFF][Int.random(in: 0...6, using: &rng)]
            case 2: input.removeSubrange(position..<min(input.count, position + Int.random(in: 1...8, using: &rng)))
            default: input.insert(contentsOf: rng.bytes(Int.random(in: 1...4, using: &rng)), at: position)
            }
            exercise(input, counts: &counts)
        }
        XCTAssertEqual(counts.parsed + counts.rejected, 40_000)
    }

    private func randomTree(depth: Int, rng: inout SeededGenerator) -> [UInt8] {
        let primitiveTags: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x0C, 0x13, 0x16, 0x17, 0x18, 0x1E, 0x80, 0x9F]
        if depth >= 4 || Int.random(in: 0...2, using: &rng) == 0 {
            let tag = primitiveTags[Int.random(in: 0..<primitiveTags.count, using: &rng)]
            let content = rng.bytes(Int.random(in: 0...6, using: &rng))
            if tag == 0x9F { return [0x9F, 0x21, UInt8(content.count)] + content }
            return [tag, UInt8(content.count)] + content
        }
        let tag: UInt8 = [0x30, 0x31, 0xA0, 0xA3, 0x24][Int.random(in: 0...4, using: &rng)]
        var content: [UInt8] = []
        for _ in 0..<Int.random(in: 0...4, using: &rng) { content += randomTree(depth: depth + 1, rng: &rng) }
        if Int.random(in: 0...5, using: &rng) == 0 { return [tag, 0x80] + content + [0, 0] }
        if content.count < 128 { return [tag, UInt8(content.count)] + content }
        return [tag, 0x81, UInt8(content.count & 0xFF)] + content
    }
}
