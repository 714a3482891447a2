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
    public static func parseAll(_ text: String) throws(ASN1Error) -> [PEMDocument] {
        let lines = splitLines(text)
        var documents: [PEMDocument] = []
        var index = 0
        while index < lines.count {
            let (offset, line) = lines[index]
            index += 1
            guard let label = boundaryLabel(line, kind: "BEGIN") else {
                if boundaryLabel(line, kind: "END") != nil {
                    throw ASN1Error(.invalidPEM, "END line without BEGIN", offset: offset)
                }
                continue
            }
            var body: [UInt8] = []
            var closed = false
            while index < lines.count {
                let (lineOffset, bodyLine) = lines[index]
                index += 1
                if let endLabel = boundaryLabel(bodyLine, kind: "END") {
                    guard endLabel == label else {
                        throw ASN1Error(.invalidPEM, "END label \"\(endLabel)\" does not match BEGIN \"\(label)\"",
                                        offset: lineOffset)
                    }
                    closed = true
                    break
                }
                if boundaryLabel(bodyLine, kind: "BEGIN") != nil {
                    throw ASN1Error(.invalidPEM, "BEGIN inside an open \"\(label)\" block", offset: lineOffset)
                }
                if bodyLine.contains(UInt8(ascii: ":")) {
                    throw ASN1Error(.invalidPEM, "PEM headers (encrypted PEM) are not supported", offset: lineOffset)
                }
                let trimmed = bodyLine.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
                body.append(contentsOf: trimmed)
            }
            guard closed else {
                throw ASN1Error(.invalidPEM, "\"\(label)\" block has no END line", offset: offset)
            }
            let der: [UInt8]
            do {
                der = try Base64.decode(body, alphabet: .standard, padding: .required)
            } catch {
                throw ASN1Error(.invalidPEM, "body of \"\(label)\": \(error.reason)", offset: offset)
            }
            documents.append(PEMDocument(label: label, derBytes: der))
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

    /// Lines with their starting UTF-8 offsets, CRLF or LF ends removed.
    private static func splitLines(_ text: String) -> [(Int, [UInt8])] {
        var lines: [(Int, [UInt8])] = []
        var current: [UInt8] = []
        var start = 0
        for (i, byte) in text.utf8.enumerated() {
            if byte == 0x0A {
                if current.last == 0x0D { current.removeLast() }
                lines.append((start, current))
                current = []
                start = i + 1
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { lines.append((start, current)) }
        return lines
    }

    /// The label of a `-----BEGIN label-----` / `-----END label-----` line (RFC 7468 §3), or nil.
    /// The label of a "-----BEGIN label-----" / "-----END label-----" line (RFC 7468 §3), or nil.
    /// Shared with SigilKeys' constant-time key reader, so both readers accept the same boundaries.
    package static func boundaryLabel(_ line: [UInt8], kind: String) -> String? {
        let trimmed = Array(line.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed())
        let prefix = Array("-----\(kind) ".utf8)
        let suffix = Array("-----".utf8)
        guard trimmed.count >= prefix.count + suffix.count,
              trimmed.starts(with: prefix), trimmed.suffix(suffix.count).elementsEqual(suffix)
        else { return nil }
        let label = trimmed[prefix.count..<(trimmed.count - suffix.count)]
        // RFC 7468 §3: label characters are printable ASCII except '-', with single spaces between.
        guard label.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "-") }) else { return nil }
        return String(decoding: label, as: UTF8.self)
    }
}
