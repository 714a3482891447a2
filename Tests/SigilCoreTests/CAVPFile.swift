import Foundation
import SigilTestSupport

/// A minimal reader for NIST CAVP .rsp and the RFC HMAC record files: `Key = value` lines grouped
/// into records by blank lines; `#` comments and `[…]` section headers skipped.
struct CAVPFile {
    let records: [[String: String]]

    init(url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        var records: [[String: String]] = []
        var current: [String: String] = [:]
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty {
                if !current.isEmpty {
                    records.append(current)
                    current = [:]
                }
                continue
            }
            if line.hasPrefix("#") || line.hasPrefix("[") { continue }
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            current[key] = value
        }
        if !current.isEmpty { records.append(current) }
        self.records = records
    }

    static func hex(_ record: [String: String], _ key: String) -> [UInt8]? {
        record[key].flatMap(Hex.decode)
    }
}
