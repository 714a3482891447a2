import SigilCBOR

/// The two header buckets of a COSE message (RFC 9052 §3): the protected one as the exact bytes
/// the signature or MAC covers, and both as maps.
///
/// Read strictly: the protected bucket is a byte string holding a map (or nothing, the empty
/// map), the unprotected one a map; labels are integers or text; no label is in both buckets;
/// every label `crit` names is one this module understands (§3.1). The parameters a verifier
/// trusts come from the protected bucket only (``algorithm()``); `x5chain` and `kid` are read from
/// either, as RFC 9360 and ISO/IEC 18013-5 place them in the unprotected one.
public struct COSEHeaders: Sendable {
    /// The protected bucket's bytes exactly as they came (the content of its byte string), which
    /// `Sig_structure` and `MAC_structure` cover.
    public let protectedBytes: [UInt8]
    /// The protected bucket, decoded.
    public let protected: [CBORMapEntry]
    /// The unprotected bucket.
    public let unprotected: [CBORMapEntry]

    /// `alg` (1), `crit` (2), `content type` (3), `kid` (4), `x5chain` (33): the labels `crit`
    /// may name.
    static let understoodLabels: Set<Int64> = [1, 2, 3, 4, 33]
    /// The most parameters read in one bucket (64).
    public static let maximumParameters = 64

    /// Reads the two buckets of a COSE message.
    public init(protected: CBORValue, unprotected: CBORValue) throws(COSEError) {
        guard case .bytes(let protectedBytes) = protected else {
            throw COSEError(.malformedHeader, "the protected header is not a byte string (RFC 9052 §3)")
        }
        var protectedMap: [CBORMapEntry] = []
        if !protectedBytes.isEmpty {
            let decoded: CBORValue
            do {
                decoded = try CBOR.decode(protectedBytes, options: .strict)
            } catch {
                throw COSEError(wrapping: error, as: .malformedHeader, context: "the protected header")
            }
            guard case .map(let entries) = decoded else {
                throw COSEError(.malformedHeader, "the protected header's bytes are not a map (RFC 9052 §3)")
            }
            protectedMap = entries
        }
        guard case .map(let unprotectedMap) = unprotected else {
            throw COSEError(.malformedHeader, "the unprotected header is not a map (RFC 9052 §3)")
        }
        // A handful of parameters is what any message carries; a bound keeps the checks below linear
        // in work an unauthenticated sender can ask for.
        guard protectedMap.count <= Self.maximumParameters, unprotectedMap.count <= Self.maximumParameters else {
            throw COSEError(.malformedHeader, "a header bucket holds more than \(Self.maximumParameters) parameters")
        }
        for entry in protectedMap + unprotectedMap {
            switch entry.key {
            case .unsigned, .negative, .text: break
            default: throw COSEError(.malformedHeader, "a header label is neither an integer nor text (RFC 9052 §3)")
            }
        }
        let protectedLabels = Set(protectedMap.map { $0.key })
        for entry in unprotectedMap where protectedLabels.contains(entry.key) {
            throw COSEError(.malformedHeader, "the label \(Self.describe(entry.key)) is in both header buckets (RFC 9052 §3)")
        }
        if unprotectedMap.contains(where: { $0.key == .unsigned(2) }) {
            throw COSEError(.malformedHeader, "crit is in the unprotected header; it belongs in the protected one (RFC 9052 §3.1)")
        }
        if let critical = protectedMap.first(where: { $0.key == .unsigned(2) })?.value {
            guard case .array(let labels) = critical, !labels.isEmpty else {
                throw COSEError(.malformedHeader, "crit is not a non-empty array of labels (RFC 9052 §3.1)")
            }
            for label in labels {
                guard let number = label.int64Value, Self.understoodLabels.contains(number) else {
                    throw COSEError(
                        .unknownCriticalHeader,
                        "crit names \(Self.describe(label)), which this verifier does not understand (RFC 9052 §3.1)")
                }
                guard protectedMap.contains(where: { $0.key == label }) else {
                    throw COSEError(
                        .malformedHeader, "crit names \(Self.describe(label)), which the protected header does not hold (RFC 9052 §3.1)")
                }
            }
        }
        self.protectedBytes = protectedBytes
        self.protected = protectedMap
        self.unprotected = unprotectedMap
    }

    /// The value of integer label `label` in the protected bucket.
    public func protectedValue(_ label: Int64) -> CBORValue? {
        protected.first { $0.key.int64Value == label }?.value
    }

    /// The value of integer label `label` in either bucket (they never share a label).
    public func value(_ label: Int64) -> CBORValue? {
        protectedValue(label) ?? unprotected.first { $0.key.int64Value == label }?.value
    }

    /// `alg` from the protected bucket (RFC 9052 §3.1: it must be authenticated), nil when
    /// absent. Throws ``COSEError/Code/missingAlgorithm`` when `alg` is only in the unprotected
    /// bucket, ``COSEError/Code/malformedHeader`` when it is not an integer (text algorithm names
    /// are private use: refused).
    public func algorithm() throws(COSEError) -> COSEAlgorithm? {
        guard let value = protectedValue(1) else {
            if unprotected.contains(where: { $0.key.int64Value == 1 }) {
                throw COSEError(
                    .missingAlgorithm, "alg is in the unprotected header, where the signature does not cover it (RFC 9052 §3.1)")
            }
            return nil
        }
        guard let number = value.int64Value else {
            throw COSEError(.malformedHeader, "alg is not an integer (RFC 9052 §3.1)")
        }
        return COSEAlgorithm(rawValue: number)
    }

    /// `kid` (4), a byte string, from either bucket.
    public func keyID() throws(COSEError) -> [UInt8]? {
        guard let value = value(4) else { return nil }
        guard case .bytes(let bytes) = value else { throw COSEError(.malformedHeader, "kid is not a byte string (RFC 9052 §3.1)") }
        return bytes
    }

    /// `x5chain` (33, RFC 9360 §2) from either bucket: the DER certificates, the signer's first;
    /// one certificate may be a lone byte string. Nil when absent; throws
    /// ``COSEError/Code/malformedCertificateChain`` for an empty array or a member that is not a
    /// byte string.
    public func certificateChain() throws(COSEError) -> [[UInt8]]? {
        guard let value = value(33) else { return nil }
        switch value {
        case .bytes(let certificate):
            return [certificate]
        case .array(let members) where !members.isEmpty:
            var chain: [[UInt8]] = []
            for member in members {
                guard case .bytes(let certificate) = member else {
                    throw COSEError(.malformedCertificateChain, "an x5chain member is not a byte string (RFC 9360 §2)")
                }
                chain.append(certificate)
            }
            return chain
        default:
            throw COSEError(.malformedCertificateChain, "x5chain is neither a byte string nor a non-empty array of them (RFC 9360 §2)")
        }
    }

    static func describe(_ label: CBORValue) -> String {
        if let number = label.int64Value { return String(number) }
        if let text = label.textValue { return "\"\(text.prefix(64))\"" }
        return "a label of another type"
    }
}
