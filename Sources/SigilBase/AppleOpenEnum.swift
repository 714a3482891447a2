// Apple's value sets are open: a value Apple adds later must decode, round-trip and be kept, never
// fail the object that carries it. Every module that models Apple's values (App Store data, Sign in
// with Apple tokens, Advanced Commerce) shares this one protocol.

#if hasFeature(Embedded)
/// What every open enum shares: the raw value Apple sent, kept whatever it is; the values Apple
/// documents; and whether this one is among them.
///
/// In the regular build an open enum is also `Codable`; Embedded Swift has no `Codable`, and its
/// models read and write their values directly.
public protocol AppleOpenEnum: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue: Hashable & Sendable & CustomStringConvertible {
    /// Wraps a raw value as received, documented or not.
    init(rawValue: RawValue)
    /// The values Apple documents.
    static var documented: [Self] { get }
}
#else
/// What every open enum shares: the raw value Apple sent, kept whatever it is; the values Apple
/// documents; and whether this one is among them.
///
/// In the regular build an open enum is also `Codable`; Embedded Swift has no `Codable`, and its
/// models read and write their values directly.
public protocol AppleOpenEnum: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue: Codable & Hashable & Sendable & CustomStringConvertible {
    /// Wraps a raw value as received, documented or not.
    init(rawValue: RawValue)
    /// The values Apple documents.
    static var documented: [Self] { get }
}
#endif

extension AppleOpenEnum {
    /// Whether the value is one Apple documents (false for a value added after this release).
    public var isDocumented: Bool { Self.documented.contains(self) }
    /// The raw value as text.
    public var description: String { rawValue.description }
}
