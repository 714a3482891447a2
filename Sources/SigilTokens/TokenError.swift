import SigilBase

/// The one error type of SigilTokens: why a token, client secret or signature could not be made.
///
/// Minting fails only before anything is signed: a key that cannot sign for Apple, or a claim
/// Apple would refuse (an empty key id, a lifetime beyond Apple's limit, a request that is not
/// JSON). The Sign in with Apple identity-token verifier reports through SigilJOSE's `JOSEError`,
/// as every JWS check does.
public struct TokenError: ModuleError {
    /// "tokens": `tokens.code` names this module's errors across Sigil.
    public static let domain = "tokens"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A key that cannot sign Apple's tokens: not P-256, not a private key, or not a readable
        /// `.p8` (PKCS#8) file.
        public static var invalidKey: Code { Code("invalidKey") }
        /// A claim or parameter Apple's servers would refuse: an empty key id, issuer or bundle id,
        /// a lifetime beyond Apple's limit, a request body that is not JSON.
        public static var invalidConfiguration: Code { Code("invalidConfiguration") }
    }

    /// Why the token could not be made, as a stable code.
    public let code: Code
    /// What was wrong, and what to do next (never any byte of the key).
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
