import SigilASN1
import SigilBase
import SigilCore

/// PEM decoding (RFC 7468) for private keys without a secret-dependent branch or table index.
///
/// `PEMDocument` and `Base64.decode` are written for public data: they index a 256-entry table
/// with each character and branch on every byte. A `.p8` file's base64 body *is* the key, so key
/// loading uses this decoder instead:
///
/// 1. Layout first: for every byte a branch-free mask says whether it is a line break (LF), and
///    for every line whether it starts with '-' (a boundary line) and which bytes are CR, space or
///    tab. These masks describe the file's layout, which is public (line lengths, where the body
///    starts and ends, padding); they are declassified (`ConstantTimeAudit`) and only then used.
///    The characters' values never steer a branch or an index.
/// 2. Base64: each character's 6-bit value is computed arithmetically (range masks, no table), an
///    "invalid character" mask is accumulated, and the bytes go to positions fixed by the public
///    length. Validity is declassified once at the end: a malformed key is reported as such.
/// 3. Boundary lines (public) are parsed as usual; the label selects the DER reader.
///
/// The valgrind harness (Tests/SigilCTime) runs it with the whole body marked secret.
public enum SecretPEM {
    /// A decoded block: its label and DER.
    public struct Block: Sendable {
        /// The PEM label ("PRIVATE KEY", "EC PRIVATE KEY", …).
        public let label: String
        /// The decoded bytes (settable within SigilKeys only, so that a reader can wipe them in place).
        public internal(set) var der: [UInt8]
    }

    @inline(__always) static func rangeMask(_ x: Int32, _ lo: Int32, _ hi: Int32) -> Int32 {
        ((lo &- 1 &- x) & (x &- (hi &+ 1))) >> 31  // -1 when lo <= x <= hi, else 0
    }

    /// The 6-bit value of a standard-alphabet base64 character and a validity mask (0xFF / 0).
    @inline(__always) static func sextet(_ c: UInt8) -> (value: UInt32, valid: UInt32) {
        let x = Int32(c)
        let upper = rangeMask(x, 65, 90)
        let lower = rangeMask(x, 97, 122)
        let digit = rangeMask(x, 48, 57)
        let plus = rangeMask(x, 43, 43)
        let slash = rangeMask(x, 47, 47)
        let value = (upper & (x &- 65)) | (lower & (x &- 71)) | (digit & (x &+ 4)) | (plus & 62) | (slash & 63)
        return (UInt32(truncatingIfNeeded: value) & 0x3F, UInt32(truncatingIfNeeded: upper | lower | digit | plus | slash) & 0xFF)
    }

    /// Decodes every block of `text`. Boundary and label rules as `PEMDocument` (BEGIN/END labels
    /// must match, no headers); body bytes other than base64 characters, '=' padding at the end,
    /// and CR / space / tab at line ends are refused.
    public static func decode(_ text: [UInt8]) throws(SigilKeysError) -> [Block] {
        // 1. Layout, one branch-free mask per byte, declassified once: bit 0 line break (LF),
        //    bit 1 CR / space / tab (what a line may end with). No allocation per line: hostile
        //    text of many short lines costs no more than any other text of its size.
        var layout = [UInt8](repeating: 0, count: text.count)
        for i in text.indices {
            let x = Int32(text[i])
            let lineBreak = rangeMask(x, 10, 10)
            let blank = rangeMask(x, 13, 13) | rangeMask(x, 32, 32) | rangeMask(x, 9, 9)
            layout[i] = UInt8(truncatingIfNeeded: (lineBreak & 1) | (blank & 2))
        }
        ConstantTimeAudit.declassify(contentsOf: layout)

        // Per line: its trailing CR / space / tab dropped, then boundary or not (first byte '-',
        // declassified through one reused cell).
        var blocks: [Block] = []
        var open: String?  // the label of the open block
        // The base64 text of the open block (the secret itself): one allocation, wiped before it
        // is reused and when decoding ends.
        var body: [UInt8] = []
        body.reserveCapacity(text.count)
        defer { SecretMemory.wipe(&body) }
        var isBoundary: [UInt8] = [0]
        var start = 0
        while start < text.count {
            var end = start
            while end < text.count && layout[end] & 1 == 0 { end += 1 }
            let next = end + 1
            while end > start && layout[end - 1] & 2 != 0 { end -= 1 }
            let trimmed = start..<end
            start = next
            isBoundary[0] = UInt8(truncatingIfNeeded: trimmed.isEmpty ? 0 : rangeMask(Int32(text[trimmed.lowerBound]), 45, 45))
            ConstantTimeAudit.declassify(contentsOf: isBoundary)
            if isBoundary[0] != 0 {
                // A boundary line: public text, parsed as usual.
                if let label = PEMDocument.boundaryLabel(text[trimmed], kind: "BEGIN") {
                    guard open == nil else { throw SigilKeysError(.malformed, "PEM: BEGIN inside an open block") }
                    open = label
                    SecretMemory.wipe(&body)
                    body.removeAll(keepingCapacity: true)
                } else if let label = PEMDocument.boundaryLabel(text[trimmed], kind: "END") {
                    guard let current = open else { throw SigilKeysError(.malformed, "PEM: END line without BEGIN") }
                    guard current == label else {
                        throw SigilKeysError(.malformed, "PEM: END label \"\(label)\" does not match BEGIN \"\(current)\"")
                    }
                    open = nil
                    blocks.append(Block(label: label, der: try base64(body)))
                } else {
                    throw SigilKeysError(.malformed, "PEM: a line starting with '-' is neither BEGIN nor END")
                }
            } else if open != nil {
                body.append(contentsOf: text[trimmed])
            }
            // Text outside blocks is ignored (RFC 7468 §2 explanatory text).
        }
        guard open == nil else { throw SigilKeysError(.malformed, "PEM: a block has no END line") }
        return blocks
    }

    /// Branch-free standard base64 with required padding; the body length and the position of
    /// '=' are layout (public).
    static func base64(_ body: [UInt8]) throws(SigilKeysError) -> [UInt8] {
        guard body.count % 4 == 0, !body.isEmpty else {
            throw SigilKeysError(.malformed, "PEM: the base64 body length is not a multiple of 4")
        }
        // Padding: whether each of the last two characters is '=' (layout).
        let pads = [
            UInt8(truncatingIfNeeded: rangeMask(Int32(body[body.count - 2]), 61, 61)),
            UInt8(truncatingIfNeeded: rangeMask(Int32(body[body.count - 1]), 61, 61)),
        ]
        ConstantTimeAudit.declassify(contentsOf: pads)
        let padding = pads[1] == 0 ? 0 : (pads[0] == 0 ? 1 : 2)
        let characters = body.count - padding
        var out = [UInt8](repeating: 0, count: characters * 6 / 8)
        var invalid: UInt32 = 0
        var accumulator: UInt32 = 0
        var bits = 0
        var written = 0
        for i in 0..<characters {
            let (value, valid) = sextet(body[i])
            invalid |= ~valid & 0xFF
            accumulator = (accumulator << 6) | value
            bits += 6  // public: depends on the position only
            if bits >= 8 {
                bits -= 8
                out[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                written += 1
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // RFC 4648 §3.5: the spare bits of the last character are zero (canonical encoding).
        invalid |= accumulator
        let verdict = [UInt8(truncatingIfNeeded: (invalid | (invalid >> 8)) & 0xFF)]
        ConstantTimeAudit.declassify(contentsOf: verdict)
        guard verdict[0] == 0 else {
            SecretMemory.wipe(&out)
            throw SigilKeysError(.malformed, "PEM: the body is not canonical base64")
        }
        return out
    }
}
