import Foundation

/// ISO/IEC 18013-5 Annex D's worked example, from the third-party data set `mdoc`
/// (`Scripts/vectors-dir mdoc`): its files, and the P-256 keys `keys.txt` lists (x, y, d in hex).
/// The one reader of that folder for every test target.
public enum AnnexD {
    /// The path of `name` in the example's folder.
    public static func path(_ name: String) throws -> String {
        try TestPaths.requireMdocVectors().appendingPathComponent("iso18013-5-annex-d/\(name)").path
    }

    /// The bytes of `name`.
    public static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// The coordinates and scalar of the key `name` ("ephemeral-reader-key", "static-device-key", …).
    public static func key(_ name: String) throws -> (x: [UInt8], y: [UInt8], d: [UInt8]) {
        let text = String(decoding: try bytes("keys.txt"), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + " ") }) else {
            throw TestPaths.MissingVectors(message: "keys.txt has no key \(name)")
        }
        var fields: [String: [UInt8]] = [:]
        for part in line.split(separator: " ").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = Hex.decode(String(pair[1])) }
        }
        guard let x = fields["x"], let y = fields["y"], let d = fields["d"] else {
            throw TestPaths.MissingVectors(message: "keys.txt's \(name) lacks x, y or d")
        }
        return (x, y, d)
    }
}
