/// A request Sigil refuses to send because it breaks one of Apple's documented rules (the server
/// would answer 400 with the code named in `reason`).
public struct AppleAPIRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending field, as a path into the request (`bulletPoints[2].text`).
    public let field: String
    /// Why the request breaks the rule.
    public let reason: String
    /// An error for `field` with `reason`.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
    /// The field and the reason.
    public var description: String { "\(field): \(reason)" }
}
