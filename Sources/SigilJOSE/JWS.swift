import SigilASN1
import SigilCore
import SigilKeys

/// The JWS algorithms Sigil signs and verifies (RFC 7518 §3). "none" and the HMAC algorithms are
/// deliberately absent: a token naming them is refused before any cryptography (ARCHITECTURE.md, Conventions 9).
public enum JWSAlgorithm: String, Sendable, CaseIterable, Hashable {
    /// ECDSA P-256 with SHA-256, signature R ‖ S of 64 bytes (RFC 7518 §3.4).
    case es256 = "ES256"
    /// ECDSA P-384 with SHA-384, signature R ‖ S of 96 bytes.
    case es384 = "ES384"
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3).
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt (RFC 7518 §3.5).
    case ps256 = "PS256"
}

/// A verification key bound to exactly one algorithm: the header's alg must name it.
public enum JWSVerificationKey: Sendable, Hashable {
    /// An EC key: P-256 is bound to ES256, P-384 to ES384.
    case ecdsa(ECDSAPublicKey)
    /// An RSA key and the one algorithm (RS256 or PS256) it may be used with.
    case rsa(RSAPublicKey, JWSAlgorithm)

    /// The one algorithm the key verifies.
    public var algorithm: JWSAlgorithm {
        switch self {
        case .ecdsa(let key): key.curve == .p256 ? .es256 : .es384
        case .rsa(_, let algorithm): algorithm
        }
    }
}

/// A JWS in compact serialization (RFC 7515 §7.1), parsed but not yet verified.
///
/// Parsing follows RFC 7515 §5.2: exactly three parts, each strict base64url; the header is a
/// JSON object without duplicate member names; the signing input is kept exactly as received
/// (the bytes before the second dot), so verification hashes what the sender signed.
public struct JWS: Sendable {
    /// The JOSE header as parsed.
    public let header: JSONValue
    /// The decoded header bytes (UTF-8 JSON).
    public let headerBytes: [UInt8]
    /// The decoded payload bytes (not interpreted here).
    public let payload: [UInt8]
    /// The decoded signature bytes.
    public let signature: [UInt8]
    /// ASCII(BASE64URL(header) ‖ '.' ‖ BASE64URL(payload)), as received.
    public let signingInput: [UInt8]
    /// When the header came from a memo (`knownHeader`): SHA-256 having absorbed the first
    /// `count` bytes of `signingInput` (the header part and its dot), so that an ES256 check
    /// hashes only the rest. The same digest, by the streaming property of Merkle–Damgård.
    private let headerPartDigest: (state: SHA256, count: Int)?

    /// The largest compact JWS accepted (App Store signed data is a few KiB).
    public static let maximumSize = 1 << 20

    /// Parses a compact JWS (RFC 7515 §7.1): exactly three base64url parts, a header that is a JSON object without duplicate members, the signing input kept as received. At most `maximumSize` bytes.
    public init(compact text: String) throws(JOSEError) {
        try self.init(compact: text, knownHeader: { _ in nil })
    }

    /// A header parsed earlier from a header part's exact base64url text: its decoded bytes and
    /// its JSON object (for a memo of headers seen before, such as a chain cache's).
    package struct ParsedHeader: Sendable {
        package let header: JSONValue
        package let headerBytes: [UInt8]
        /// SHA-256 having absorbed the header part's text and the dot after it.
        package let signingInputPrefixDigest: SHA256
    }

    /// `init(compact:)`, except that when `knownHeader` returns a parse for the header part's
    /// exact text, that parse is used and the header is neither base64url-decoded nor parsed
    /// again (strict base64url gives each text one decoding, so the same text is the same
    /// header). Everything else is checked as `init(compact:)` checks it.
    package init(compact text: String, knownHeader: (ArraySlice<UInt8>) -> ParsedHeader?) throws(JOSEError) {
        let count = text.utf8.count
        guard count <= JWS.maximumSize else {
            throw JOSEError(.malformed, "a JWS of \(count) bytes is larger than \(JWS.maximumSize)")
        }
        var bytes = Array(text.utf8)
        let dot = UInt8(ascii: ".")
        guard let first = JWS.firstDot(in: bytes, from: 0), let second = JWS.firstDot(in: bytes, from: first + 1) else {
            throw JOSEError(.malformed, "a compact JWS has three parts, found \(bytes.filter { $0 == dot }.count + 1)")
        }
        guard JWS.firstDot(in: bytes, from: second + 1) == nil else {
            throw JOSEError(.malformed, "a compact JWS has three parts, found more")
        }
        let known = knownHeader(bytes[..<first])
        if let known {
            headerBytes = known.headerBytes
        } else {
            do {
                headerBytes = try Base64URL.decode(bytes[..<first])
            } catch { throw JOSEError(.malformed, "header: \(error.reason)") }
        }
        do {
            payload = try Base64URL.decode(bytes[(first + 1)..<second])
        } catch { throw JOSEError(.malformed, "payload: \(error.reason)") }
        do {
            signature = try Base64URL.decode(bytes[(second + 1)...])
        } catch { throw JOSEError(.malformed, "signature: \(error.reason)") }
        if let known {
            header = known.header
        } else {
            let parsed: JSONValue
            do { parsed = try JSONValue(parsing: headerBytes) } catch { throw JOSEError(.malformed, "header: \(error.reason)") }
            guard case .object = parsed else { throw JOSEError(.malformed, "the JOSE header is not a JSON object") }
            header = parsed
        }
        // The text up to the second dot, in place: `bytes` is not used after this.
        bytes.removeSubrange(second...)
        signingInput = bytes
        // The known header's text is this header part byte for byte, and `first` is its dot.
        headerPartDigest = known.map { ($0.signingInputPrefixDigest, first + 1) }
    }

    /// The header part as received: the signing input's bytes before its dot (what
    /// `knownHeader` is given, and what a memo keys on).
    package var headerPartText: ArraySlice<UInt8> {
        signingInput[..<(JWS.firstDot(in: signingInput, from: 0) ?? signingInput.count)]
    }

    /// The header this JWS's header part decodes to, with SHA-256's state after the header part
    /// and its dot: what a memo keeps (hashing the header part, so made only when it is kept).
    package var parsedHeader: ParsedHeader {
        var digest = SHA256()
        digest.update(signingInput[..<min(headerPartText.endIndex + 1, signingInput.count)])
        return ParsedHeader(header: header, headerBytes: headerBytes, signingInputPrefixDigest: digest)
    }

    /// The index of the first "." at or after `start`, eight bytes at a time.
    static func firstDot(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBytes { raw in
            let ones: UInt64 = 0x0101_0101_0101_0101
            var index = start
            while raw.count - index >= 8 {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ (ones &* 0x2E)
                if (word &- ones) & ~word & (ones &* 0x80) != 0 { break }
                index += 8
            }
            while index < raw.count {
                if raw[index] == UInt8(ascii: ".") { return index }
                index += 1
            }
            return nil
        }
    }

    /// The header's alg, if it is a string.
    public var algorithm: String? { header["alg"]?.stringValue }
    /// The header's kid, if it is a string.
    public var keyID: String? { header["kid"]?.stringValue }
    /// The header's typ, if it is a string.
    public var type: String? { header["typ"]?.stringValue }

    /// The x5c entries as sent (strings), nil when the header has no x5c. A malformed x5c (not
    /// an array of strings) is an error, never silently skipped.
    public func x5cStrings() throws(JOSEError) -> [String]? {
        guard let member = header["x5c"] else { return nil }
        guard let list = member.arrayValue else { throw JOSEError(.malformed, "x5c is not an array") }
        var out: [String] = []
        out.reserveCapacity(list.count)
        for (index, item) in list.enumerated() {
            guard let text = item.stringValue else { throw JOSEError(.malformed, "x5c[\(index)] is not a string") }
            out.append(text)
        }
        return out
    }

    /// The x5c certificates' DER, nil when the header has no x5c.
    public func x5c() throws(JOSEError) -> [[UInt8]]? {
        guard let strings = try x5cStrings() else { return nil }
        var out: [[UInt8]] = []
        out.reserveCapacity(strings.count)
        for (index, text) in strings.enumerated() {
            do { out.append(try JWS.certificateDER(text)) } catch {
                throw JOSEError(.malformed, "x5c[\(index)]: \(error.reason)")
            }
        }
        return out
    }

    /// Decodes one x5c entry: RFC 7515 §4.1.6 says standard base64 with padding, not base64url.
    public static func certificateDER(_ text: String) throws(JOSEError) -> [UInt8] {
        do {
            return try Base64.decode(text.utf8, alphabet: .standard, padding: .required)
        } catch {
            throw JOSEError(.malformed, "not standard base64: \(error.reason)")
        }
    }

    /// The payload parsed as a JSON value (strict parser, duplicate names refused).
    public func payloadJSON() throws(JOSEError) -> JSONValue {
        do { return try JSONValue(parsing: payload) } catch { throw JOSEError(.malformed, "payload: \(error.reason)") }
    }

    /// Verifies the signature with `key` (RFC 7515 §5.2 steps 8–10).
    ///
    /// The header's alg must be a string equal to the key's bound algorithm; "none", HMAC and any
    /// other value are refused before any cryptography, and a `crit` header is refused (Sigil
    /// understands no extension that could be marked critical, RFC 7515 §4.1.11).
    /// **Variable time**: every input is public.
    public func verify(with key: JWSVerificationKey) throws(JOSEError) {
        guard let alg = algorithm else { throw JOSEError(.algorithmMismatch, "the header has no string alg") }
        guard alg == key.algorithm.rawValue else {
            throw JOSEError(.algorithmMismatch, "header alg \"\(alg)\" does not match the key's \(key.algorithm.rawValue)")
        }
        if header["crit"] != nil {
            throw JOSEError(.unsupportedHeader, "the header lists critical extensions (crit), none of which Sigil implements")
        }
        let valid: Bool
        switch key {
        case .ecdsa(let publicKey):
            // RFC 7518 §3.4: R ‖ S, each exactly the curve's byte length; DER is not accepted.
            guard signature.count == 2 * publicKey.curve.byteCount,
                let parsed = try? ECDSASignature(rawRepresentation: signature, curve: publicKey.curve)
            else {
                throw JOSEError(
                    .invalidSignature,
                    "an \(alg) signature is \(2 * publicKey.curve.byteCount) bytes R ‖ S with 0 < R, S < n; found \(signature.count) bytes")
            }
            if publicKey.curve.defaultHash == .sha256, let (state, count) = headerPartDigest {
                var digest = state
                digest.update(signingInput[count...])
                valid = publicKey.isValidSignatureVartime(parsed, digest: digest.finalizedThroughRequirement())
            } else {
                valid = publicKey.isValidSignatureVartime(parsed, for: signingInput, hash: publicKey.curve.defaultHash)
            }
        case .rsa(let publicKey, .rs256):
            valid = publicKey.isValidPKCS1v15SignatureVartime(signature, for: signingInput, hash: .sha256)
        case .rsa(let publicKey, .ps256):
            valid = publicKey.isValidPSSSignatureVartime(
                signature, for: signingInput,
                parameters: .init(hash: .sha256, maskGenerationHash: .sha256, saltLength: 32))
        case .rsa(_, let other):
            throw JOSEError(.algorithmMismatch, "an RSA key cannot be bound to \(other.rawValue)")
        }
        guard valid else { throw JOSEError(.invalidSignature, "the \(alg) signature does not verify") }
    }

    /// Signs header and payload with ES256 (P-256 key) or ES384 (P-384 key) and returns the compact
    /// serialization. The header's alg is set from the key (any alg the caller put there must
    /// agree). Constant time in the key: RFC 6979 nonces and the constant-time signing path.
    public static func sign(header: JSONValue, payload: [UInt8], key: ECDSAPrivateKey) throws(JOSEError) -> String {
        guard case .object(var members) = header else { throw JOSEError(.invalidArgument, "the header must be a JSON object") }
        let alg: JWSAlgorithm = key.curve == .p256 ? .es256 : .es384
        if let index = members.firstIndex(where: { $0.0 == "alg" }) {
            guard members[index].1 == .string(alg.rawValue) else {
                throw JOSEError(.invalidArgument, "header alg \(members[index].1.serialized) does not match a \(key.curve.rawValue) key")
            }
        } else {
            members.insert(("alg", .string(alg.rawValue)), at: 0)
        }
        let input = Base64URL.encode(Array(JSONValue.object(members).serialized.utf8)) + "." + Base64URL.encode(payload)
        let signature = key.signature(for: Array(input.utf8), hash: key.curve.defaultHash)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
