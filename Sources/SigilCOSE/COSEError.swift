import SigilBase

/// The one error type of SigilCOSE.
///
/// `code` is stable and meant for programs; `reason` is for people and names the clause of
/// RFC 9052/9053 that was not met. Neither ever carries key material.
public struct COSEError: ModuleError {
    /// "cose": `cose.code` names this module's errors across Sigil.
    public static let domain = "cose"
    /// Stable machine-readable error codes.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The bytes are not CBOR, or not within the decoder's limits (the CBOR error's code and
        /// offset are in the reason).
        public static var invalidCBOR: Code { Code("invalidCBOR") }
        /// A COSE structure of the wrong shape: not an array of four, a member of the wrong
        /// type, the wrong tag (RFC 9052 §4.2, §6.2).
        public static var malformedStructure: Code { Code("malformedStructure") }
        /// A header map that breaks RFC 9052 §3: the protected header not a map, a label in both
        /// buckets, a parameter of the wrong type.
        public static var malformedHeader: Code { Code("malformedHeader") }
        /// `crit` lists a parameter this implementation does not understand (RFC 9052 §3.1).
        public static var unknownCriticalHeader: Code { Code("unknownCriticalHeader") }
        /// No algorithm in the protected header (RFC 9052 §3.1: `alg` must be authenticated).
        public static var missingAlgorithm: Code { Code("missingAlgorithm") }
        /// An algorithm this implementation refuses, named in the reason (only ES256, ES384 and
        /// HMAC 256/256 are accepted).
        public static var unsupportedAlgorithm: Code { Code("unsupportedAlgorithm") }
        /// The algorithm does not fit the key (ES384 with a P-256 key, say).
        public static var algorithmKeyMismatch: Code { Code("algorithmKeyMismatch") }
        /// The signature does not verify, or has the wrong length for its algorithm (RFC 9053 §2.1).
        public static var invalidSignature: Code { Code("invalidSignature") }
        /// The MAC does not match (RFC 9052 §6.3).
        public static var invalidMAC: Code { Code("invalidMAC") }
        /// The payload is detached (nil) and none was given, or one was given for an attached payload.
        public static var payloadMismatch: Code { Code("payloadMismatch") }
        /// A COSE_Key that is not a usable EC2 public key on P-256 or P-384 (RFC 9053 §7.1).
        public static var invalidKey: Code { Code("invalidKey") }
        /// An `x5chain` that is empty or holds something other than byte strings (RFC 9360 §2).
        public static var malformedCertificateChain: Code { Code("malformedCertificateChain") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, for people.
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
