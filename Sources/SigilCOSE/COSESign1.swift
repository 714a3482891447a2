import SigilCBOR
import SigilCore

/// A COSE_Sign1 message (RFC 9052 §4.2): one signer, one signature, ECDSA with ES256 or ES384
/// (RFC 9053 §2.1).
///
/// `let message = try COSESign1(bytes: data)` reads the four members (tagged 18 or not); then
/// `try message.verify(with: key, externalAAD: aad)` checks the signature over `Sig_structure`
/// (§4.4): the protected header's exact bytes, the external data and the payload. A detached
/// payload (nil in the message) is given to `verify`. Every other algorithm is refused by name.
public struct COSESign1: Sendable {
    /// The header buckets.
    public let headers: COSEHeaders
    /// The payload, or nil when it is detached (RFC 9052 §4.1).
    public let payload: [UInt8]?
    /// The signature: r ‖ s, each the curve's length (RFC 9053 §2.1).
    public let signature: [UInt8]

    /// The CBOR tag of a COSE_Sign1 (RFC 9052 §2).
    public static let tag: UInt64 = 18

    /// Reads a COSE_Sign1 from its CBOR encoding (tag 18 or untagged), within `options`' limits.
    public init(bytes: [UInt8], options: CBORDecodingOptions = CBORDecodingOptions(allowTags: true)) throws(COSEError) {
        let value: CBORValue
        do {
            value = try CBOR.decode(bytes, options: options)
        } catch {
            throw COSEError(wrapping: error, as: .invalidCBOR, context: "a COSE_Sign1")
        }
        try self.init(value)
    }

    /// Reads a COSE_Sign1 from a decoded CBOR value (tag 18 or untagged).
    public init(_ value: CBORValue) throws(COSEError) {
        let members = try COSEStructure.members(of: value, tag: Self.tag, name: "COSE_Sign1")
        headers = try COSEHeaders(protected: members[0], unprotected: members[1])
        payload = try COSEStructure.payload(members[2], name: "COSE_Sign1")
        guard case .bytes(let signature) = members[3] else {
            throw COSEError(.malformedStructure, "the COSE_Sign1 signature is not a byte string (RFC 9052 §4.2)")
        }
        self.signature = signature
    }

    /// `Sig_structure` for this message (RFC 9052 §4.4): ["Signature1", protected, external_aad,
    /// payload], the bytes the signature covers.
    public func toBeSigned(externalAAD: [UInt8] = [], detachedPayload: [UInt8]? = nil) throws(COSEError) -> [UInt8] {
        let content = try COSEStructure.content(payload, detached: detachedPayload, name: "COSE_Sign1")
        return CBOR.encode(.array([.text("Signature1"), .bytes(headers.protectedBytes), .bytes(externalAAD), .bytes(content)]))
    }

    /// Verifies the signature with `key` (RFC 9052 §4.4).
    ///
    /// Throws ``COSEError/Code/missingAlgorithm`` without a protected `alg`,
    /// ``COSEError/Code/unsupportedAlgorithm`` for anything but ES256 and ES384,
    /// ``COSEError/Code/algorithmKeyMismatch`` for ES256 with a key not on P-256 or ES384 with one
    /// not on P-384 (RFC 9053 §2.1's pairing), ``COSEError/Code/invalidSignature`` for a signature
    /// of the wrong length or one that does not verify, and ``COSEError/Code/payloadMismatch``
    /// when a detached payload is missing or an attached one is given again.
    public func verify(with key: ECDSAPublicKey, externalAAD: [UInt8] = [], detachedPayload: [UInt8]? = nil) throws(COSEError) {
        guard let algorithm = try headers.algorithm() else {
            throw COSEError(.missingAlgorithm, "the COSE_Sign1 protected header has no alg (RFC 9052 §3.1)")
        }
        let curve: ECCurve
        let hash: HashAlgorithm
        switch algorithm {
        case .es256: (curve, hash) = (.p256, .sha256)
        case .es384: (curve, hash) = (.p384, .sha384)
        default: throw COSEError(.unsupportedAlgorithm, "the COSE_Sign1 is signed with \(algorithm); only ES256 and ES384 are accepted")
        }
        guard key.curve == curve else {
            throw COSEError(
                .algorithmKeyMismatch, "\(algorithm) is ECDSA on \(curve.rawValue), and the key is on \(key.curve.rawValue) (RFC 9053 §2.1)"
            )
        }
        guard signature.count == 2 * curve.byteCount else {
            throw COSEError(
                .invalidSignature,
                "an \(algorithm.name) signature is \(2 * curve.byteCount) bytes (r ‖ s), not \(signature.count) (RFC 9053 §2.1)")
        }
        let message = try toBeSigned(externalAAD: externalAAD, detachedPayload: detachedPayload)
        guard let parsed = try? ECDSASignature(rawRepresentation: signature, curve: curve),
            key.isValidSignatureVartime(parsed, for: message, hash: hash)
        else {
            throw COSEError(.invalidSignature, "the COSE_Sign1 \(algorithm.name) signature does not verify (RFC 9052 §4.4)")
        }
    }
}

/// A COSE_Mac0 message (RFC 9052 §6.2): a MAC with a key both sides hold, HMAC 256/256 only
/// (RFC 9053 §3.1).
public struct COSEMac0: Sendable {
    /// The header buckets.
    public let headers: COSEHeaders
    /// The payload, or nil when it is detached.
    public let payload: [UInt8]?
    /// The tag.
    public let tag: [UInt8]

    /// The CBOR tag of a COSE_Mac0 (RFC 9052 §2).
    public static let cborTag: UInt64 = 17

    /// Reads a COSE_Mac0 from its CBOR encoding (tag 17 or untagged).
    public init(bytes: [UInt8], options: CBORDecodingOptions = CBORDecodingOptions(allowTags: true)) throws(COSEError) {
        let value: CBORValue
        do {
            value = try CBOR.decode(bytes, options: options)
        } catch {
            throw COSEError(wrapping: error, as: .invalidCBOR, context: "a COSE_Mac0")
        }
        try self.init(value)
    }

    /// Reads a COSE_Mac0 from a decoded CBOR value (tag 17 or untagged).
    public init(_ value: CBORValue) throws(COSEError) {
        let members = try COSEStructure.members(of: value, tag: Self.cborTag, name: "COSE_Mac0")
        headers = try COSEHeaders(protected: members[0], unprotected: members[1])
        payload = try COSEStructure.payload(members[2], name: "COSE_Mac0")
        guard case .bytes(let tag) = members[3] else {
            throw COSEError(.malformedStructure, "the COSE_Mac0 tag is not a byte string (RFC 9052 §6.2)")
        }
        self.tag = tag
    }

    /// `MAC_structure` for this message (RFC 9052 §6.3): ["MAC0", protected, external_aad,
    /// payload], the bytes the tag covers.
    public func toBeMACed(externalAAD: [UInt8] = [], detachedPayload: [UInt8]? = nil) throws(COSEError) -> [UInt8] {
        let content = try COSEStructure.content(payload, detached: detachedPayload, name: "COSE_Mac0")
        return CBOR.encode(.array([.text("MAC0"), .bytes(headers.protectedBytes), .bytes(externalAAD), .bytes(content)]))
    }

    /// Checks the tag with `key` (RFC 9052 §6.3), compared in constant time.
    ///
    /// Throws ``COSEError/Code/missingAlgorithm`` without a protected `alg`,
    /// ``COSEError/Code/unsupportedAlgorithm`` for anything but HMAC 256/256,
    /// ``COSEError/Code/invalidMAC`` for a tag that is not 32 bytes or does not match, and
    /// ``COSEError/Code/payloadMismatch`` as ``COSESign1/verify(with:externalAAD:detachedPayload:)``.
    public func verify(key: [UInt8], externalAAD: [UInt8] = [], detachedPayload: [UInt8]? = nil) throws(COSEError) {
        guard let algorithm = try headers.algorithm() else {
            throw COSEError(.missingAlgorithm, "the COSE_Mac0 protected header has no alg (RFC 9052 §3.1)")
        }
        guard algorithm == .hmac256 else {
            throw COSEError(.unsupportedAlgorithm, "the COSE_Mac0 is made with \(algorithm); only HMAC 256/256 (5) is accepted")
        }
        let message = try toBeMACed(externalAAD: externalAAD, detachedPayload: detachedPayload)
        guard tag.count == SHA256.digestByteCount, HMAC<SHA256>.isValidAuthenticationCode(tag, key: key, message: message) else {
            throw COSEError(.invalidMAC, "the COSE_Mac0 HMAC 256/256 tag does not match (RFC 9052 §6.3)")
        }
    }
}

/// The shape shared by COSE_Sign1 and COSE_Mac0.
enum COSEStructure {
    /// The four members of the array, under `tag` or untagged.
    static func members(of value: CBORValue, tag: UInt64, name: String) throws(COSEError) -> [CBORValue] {
        var body = value
        if case .tagged(let number, let inner) = value {
            guard number == tag else {
                throw COSEError(.malformedStructure, "a \(name) is tagged \(number), not \(tag) (RFC 9052 §2)")
            }
            body = inner
        }
        guard case .array(let members) = body, members.count == 4 else {
            throw COSEError(.malformedStructure, "a \(name) is an array of four members (RFC 9052 §4.2, §6.2)")
        }
        return members
    }

    /// The payload member: a byte string, or nil (detached).
    static func payload(_ member: CBORValue, name: String) throws(COSEError) -> [UInt8]? {
        switch member {
        case .bytes(let bytes): return bytes
        case .null: return nil
        default: throw COSEError(.malformedStructure, "the \(name) payload is neither a byte string nor nil (RFC 9052 §4.1)")
        }
    }

    /// The payload the signature or MAC covers: the attached one, or the detached one given.
    static func content(_ payload: [UInt8]?, detached: [UInt8]?, name: String) throws(COSEError) -> [UInt8] {
        switch (payload, detached) {
        case (let attached?, nil): return attached
        case (nil, let given?): return given
        case (nil, nil): throw COSEError(.payloadMismatch, "the \(name) payload is detached and none was given (RFC 9052 §4.1)")
        case (.some, .some): throw COSEError(.payloadMismatch, "the \(name) payload is attached; a detached one was given too")
        }
    }
}

extension COSESign1 {
    /// Signs `payload` as a COSE_Sign1 (RFC 9052 §4.4) with `key`: ES256 for a P-256 key, ES384
    /// for a P-384 one, `alg` alone in the protected header, `unprotected` as given (an `x5chain`,
    /// say). With `detached`, the message carries nil where the payload would be (§4.1) and the
    /// signature still covers `payload`. Returns the untagged array.
    public static func sign(
        payload: [UInt8], detached: Bool = false, unprotected: [CBORMapEntry] = [], externalAAD: [UInt8] = [], key: ECDSAPrivateKey
    ) -> CBORValue {
        let (algorithm, hash): (COSEAlgorithm, HashAlgorithm) = key.curve == .p256 ? (.es256, .sha256) : (.es384, .sha384)
        let protected = CBOR.encode(.map(pairs: [(.unsigned(1), .integer(algorithm.rawValue))]))
        let toBeSigned = CBOR.encode(.array([.text("Signature1"), .bytes(protected), .bytes(externalAAD), .bytes(payload)]))
        let signature = key.signature(for: toBeSigned, hash: hash).rawRepresentation
        return .array([.bytes(protected), .map(unprotected), detached ? .null : .bytes(payload), .bytes(signature)])
    }
}
