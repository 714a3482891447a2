import SigilASN1

extension PEMDocument {
    /// The bytes every PEM boundary line that opens a block starts with (RFC 7468 §2).
    static let beginMarker = Array("-----BEGIN ".utf8)

    /// Whether `bytes` hold "-----BEGIN " anywhere: a file to read as PEM text rather than as DER.
    /// A byte search (no substring search on `String`, which Embedded Swift lacks).
    package static func containsBeginLine(_ bytes: [UInt8]) -> Bool {
        let marker = beginMarker
        guard bytes.count >= marker.count else { return false }
        var start = 0
        while start + marker.count <= bytes.count {
            if bytes[start] == marker[0] {
                var matched = 1
                while matched < marker.count && bytes[start + matched] == marker[matched] { matched += 1 }
                if matched == marker.count { return true }
            }
            start += 1
        }
        return false
    }
}
