#if !hasFeature(Embedded)
import SigilBase
import SigilCore
import SigilX509

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The roots directory: the regular build's store of the roots Sigil does not carry (Embedded
// Swift has no file system API here; a program built with it supplies the bytes itself, through
// `AppleRootCertificates.certificate(_:bytes:)`).
extension AppleRootCertificates {
    /// The roots directory: `SIGIL_ROOTS` when set, else `$XDG_DATA_HOME/sigil/roots`, else
    /// `$HOME/.local/share/sigil/roots`; nil when none of these variables is set.
    public static func directory(environment: [String: String]) -> String? {
        if let explicit = environment["SIGIL_ROOTS"], !explicit.isEmpty { return explicit }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/sigil/roots" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/sigil/roots" }
        return nil
    }

    /// `root` as a certificate: the built-in bytes, or `fileName` in `directory`; either way the
    /// bytes must have the pinned fingerprint. A missing root's error says which file to get from
    /// Apple and the command that installs it.
    public static func certificate(_ root: AppleRootCertificate, directory: String?) throws(AppleRootError) -> Certificate {
        if root.isBuiltIn { return try certificate(root) }
        if let directory, FileManager.default.fileExists(atPath: directory + "/" + root.fileName),
            FileManager.default.contents(atPath: directory + "/" + root.fileName) == nil
        {
            throw AppleRootError(.unreadable, "\(directory)/\(root.fileName) exists but cannot be read")
        }
        guard let directory, let stored = FileManager.default.contents(atPath: directory + "/" + root.fileName) else {
            throw AppleRootError(
                .missingRoot,
                "\(root.name) (trusted for \(root.job)) is not installed: download \(root.fileName) from \(downloadPage) "
                    + "and run `sigil roots install \(root.fileName)`"
                    + (directory.map { " (roots directory \($0))" } ?? " (set SIGIL_ROOTS to a roots directory)"))
        }
        let path = directory + "/" + root.fileName
        return try pinned(root, der: derBytes(Array(stored), named: path), origin: path)
    }

    /// Checks that `bytes` (DER, or PEM with one certificate) are one of Apple's roots by their
    /// fingerprint, and writes the DER as that root's file name in `directory` (created when
    /// absent). Returns the root installed; a file that matches no pinned fingerprint is refused.
    @discardableResult
    public static func install(_ bytes: [UInt8], named source: String, into directory: String) throws(AppleRootError)
        -> AppleRootCertificate
    {
        let der = try derBytes(bytes, named: source)
        guard let root = identify(der) else {
            throw AppleRootError(
                .unknownRoot,
                "\(source) is none of the roots Sigil trusts (its SHA-256 is \(Base16.encode(SHA256.hash(der)))); "
                    + "expected one of: " + all.map { "\($0.name) \($0.fingerprintText)" }.joined(separator: "; "))
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw AppleRootError(.unreadable, "installing \(root.name) into \(directory): \(error)")
        }
        let target = directory + "/" + root.fileName
        // A staging file of its own, then one rename over the target (rename(2) replaces it
        // atomically): a reader sees the old root or the new one, never none.
        let staging = target + ".partial-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: staging, contents: Data(der)) else {
            throw AppleRootError(.unreadable, "cannot write \(staging)")
        }
        guard rename(staging, target) == 0 else {
            try? FileManager.default.removeItem(atPath: staging)
            throw AppleRootError(.unreadable, "cannot move \(staging) to \(target)")
        }
        return root
    }
}
#endif
