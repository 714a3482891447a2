/// Text compared and cut as its UTF-8 bytes.
///
/// The protocol texts Sigil matches (DNS names, mailboxes, URIs, Apple's prefixes, member names)
/// are compared byte for byte, and Swift's `Character`-based operations (`hasPrefix`, `split`,
/// `count`, `lowercased()`) would bring grapheme breaking and Unicode's case tables into every
/// build that links them: about 40 KB of `sigil.wasm`. These are the byte forms, one home for each.
extension String {
    /// Whether the UTF-8 bytes begin with those of `prefix`.
    package func utf8HasPrefix(_ prefix: String) -> Bool { utf8.starts(with: prefix.utf8) }

    /// Whether the UTF-8 bytes end with those of `suffix`.
    package func utf8HasSuffix(_ suffix: String) -> Bool {
        let count = suffix.utf8.count
        return utf8.count >= count && utf8.suffix(count).elementsEqual(suffix.utf8)
    }

    /// Whether the UTF-8 bytes are those of `other` (no Unicode normalization).
    package func utf8Equals(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }

    /// The text with ASCII letters A–Z lowered and every other byte kept.
    package var asciiLowercased: String {
        String(decoding: utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// The text with ASCII letters a–z raised and every other byte kept.
    package var asciiUppercased: String {
        String(decoding: utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }

    /// At most the first `maximum` Unicode scalars, then "…" when any were left out.
    package func shortened(toScalars maximum: Int) -> String {
        var scalars = unicodeScalars.makeIterator()
        var out = String.UnicodeScalarView()
        for _ in 0..<maximum {
            guard let scalar = scalars.next() else { return self }
            out.append(scalar)
        }
        return scalars.next() == nil ? self : String(out) + "…"
    }
}
