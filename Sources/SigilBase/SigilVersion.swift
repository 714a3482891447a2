/// Sigil's version: the one constant `sigil --version`, `sigil overview` and the HTTP clients'
/// User-Agent read. CHANGELOG.md has a section per version.
public enum SigilVersion {
    /// The version of this source tree (semantic versioning; `-dev` until the first release).
    public static let current = "0.1.0-dev"
    /// `Sigil/<version>`, the User-Agent of Sigil's HTTP clients.
    public static var userAgent: String { "Sigil/\(current)" }
}
