/// PEM: textual encoding of DER (RFC 7468).
///
/// ```
/// -----BEGIN label-----
/// base64 lines
/// -----END label-----
/// ```
/// Strict where it matters: the END label must equal the BEGIN label, the body is canonical
/// base64 with padding, only line breaks (LF or CRLF) and trailing spaces/tabs may separate its lines,
/// and RFC 1421 headers (`Proc-Type:` etc., i.e. encrypted PEM) are refused. Text outside the
/// blocks is ignored, as RFC 7468 §2 asks (openssl writes such text before certificates).
public struct PEMDocument: Hashable, Sendable {
    /// The label, e.g. "CERTIFICATE", "PRIVATE KEY", "PUBLIC KEY", "EC PRIVATE KEY".
    public let label: String
    /// The DER bytes.
    public let derBytes: [UInt8]

    /// A document with `label` around `derBytes`.
    public init(label: String, derBytes: [UInt8]) {
        self.label = label
        self.derBytes = derBytes
    }

    /// Parses text holding exactly one PEM block (any label unless `expectedLabels` names them).
    public init(pemString: String, expectedLabels: Set<String>? = nil) throws(ASN1Error) {
        let blocks = try PEMDocument.parseAll(pemString)
        guard blocks.count == 1, let block = blocks.first else {
            throw ASN1Error(.invalidPEM, "expected one PEM block, found \(blocks.count)")
        }
        if let expectedLabels, !expectedLabels.contains(block.label) {
            throw ASN1Error(.invalidPEM, "PEM label \"\(block.label)\" is not one of \(expectedLabels.sorted())")
        }
        self = block
    }

    /// Every PEM block in `text`, in order (for bundles of certificates). Empty when there is none.
    ///
    /// One pass over the UTF-8 bytes: lines are index ranges, not copies, and only a block's base64
    /// body is gathered, so the work is linear in the text with no allocation per line (hostile
    /// text of one-byte lines costs what any other text of its size costs).
    public static func parseAll(_ text: String) throws(ASN1Error) -> [PEMDocument] {
        let bytes = Array(text.utf8)
        var documents: [PEMDocument] = []
        // The open block: its label, the offset of its BEGIN line, its base64 body so far.
        var label: String?
        var labelOffset = 0
        var body: [UInt8] = []
        var lineStart = 0
        while lineStart < bytes.count {
            // A line ends at LF (a CR before it is dropped) or at the end of the text.
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let next = lineEnd + 1
            if lineEnd < bytes.count && lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = bytes[lineStart..<lineEnd]
            let offset = lineStart
            lineStart = next

            guard let open = label else {
                if let begin = boundaryLabel(line, kind: "BEGIN") {
                    label = begin
                    labelOffset = offset
                    body.removeAll(keepingCapacity: true)
                } else if boundaryLabel(line, kind: "END") != nil {
                    throw ASN1Error(.invalidPEM, "END line without BEGIN", offset: offset)
                }
                continue
            }
            if let endLabel = boundaryLabel(line, kind: "END") {
                guard endLabel == open else {
                    throw ASN1Error(
                        .invalidPEM, "END label \"\(endLabel)\" does not match BEGIN \"\(open)\"",
                        offset: offset)
                }
                let der: [UInt8]
                do {
                    der = try Base64.decode(body, alphabet: .standard, padding: .required)
                } catch {
                    throw ASN1Error(.invalidPEM, "body of \"\(open)\": \(error.reason)", offset: labelOffset)
                }
                documents.append(PEMDocument(label: open, derBytes: der))
                label = nil
                continue
            }
            if boundaryLabel(line, kind: "BEGIN") != nil {
                throw ASN1Error(.invalidPEM, "BEGIN inside an open \"\(open)\" block", offset: offset)
            }
            if line.contains(UInt8(ascii: ":")) {
                throw ASN1Error(.invalidPEM, "PEM headers (encrypted PEM) are not supported", offset: offset)
            }
            body.append(contentsOf: line[..<trailingBlanksStart(line)])
        }
        if let open = label {
            throw ASN1Error(.invalidPEM, "\"\(open)\" block has no END line", offset: labelOffset)
        }
        return documents
    }

    /// The PEM text: 64-character lines, LF line ends, a final newline.
    public var pemString: String {
        let body = Array(Base64.encode(derBytes).utf8)
        var text = "-----BEGIN \(label)-----\n"
        var i = 0
        while i < body.count {
            text += String(decoding: body[i..<min(i + 64, body.count)], as: UTF8.self) + "\n"
            i += 64
        }
        return text + "-----END \(label)-----\n"
    }

    /// The label of a "-----BEGIN label-----" / "-----END label-----" line (RFC 7468 §3), or nil.
    /// Shared with SigilKeys' constant-time key reader, so both readers accept the same boundaries.
    package static func boundaryLabel(_ line: [UInt8], kind: String) -> String? {
        boundaryLabel(line[...], kind: kind)
    }

    /// The same, on a line of a larger buffer. Allocates only for the label it returns.
    package static func boundaryLabel(_ line: ArraySlice<UInt8>, kind: String) -> String? {
        // Every boundary line starts with '-': anything else is answered without further work.
        guard line.first == UInt8(ascii: "-") else { return nil }
        let prefix: [UInt8]
        switch kind {
        case "BEGIN": prefix = beginPrefix
        case "END": prefix = endPrefix
        default: prefix = Array("-----\(kind) ".utf8)
        }
        let trimmed = line[..<trailingBlanksStart(line)]
        guard trimmed.count >= prefix.count + dashes.count,
            trimmed.starts(with: prefix), trimmed.suffix(dashes.count).elementsEqual(dashes)
        else { return nil }
        let label = trimmed[(trimmed.startIndex + prefix.count)..<(trimmed.endIndex - dashes.count)]
        // RFC 7468 §3: label characters are printable ASCII except '-', with single spaces between.
        guard label.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "-") }) else { return nil }
        return String(decoding: label, as: UTF8.self)
    }

    private static let beginPrefix = Array("-----BEGIN ".utf8)
    private static let endPrefix = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)

    /// The index where `line`'s trailing spaces and tabs start (its end when there are none).
    private static func trailingBlanksStart(_ line: ArraySlice<UInt8>) -> Int {
        var end = line.endIndex
        while end > line.startIndex && (line[end - 1] == 0x20 || line[end - 1] == 0x09) { end -= 1 }
        return end
    }
}
