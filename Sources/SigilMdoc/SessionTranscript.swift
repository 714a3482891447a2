import SigilBase
import SigilCBOR
import SigilCOSE
import SigilCore

/// The SessionTranscript both sides of an mdoc session authenticate (ISO/IEC 18013-5 §9.1.5.1):
/// `[DeviceEngagementBytes, EReaderKeyBytes, Handover]`, or for the web (ISO/IEC 18013-7 Annex C)
/// `[null, null, ["dcapi", SHA-256(dcapiInfo)]]`.
///
/// It is kept as its exact bytes: DeviceAuthentication embeds those bytes, and the deviceMac's
/// salt is SHA-256 of SessionTranscriptBytes, tag 24 around them. Both forms a caller may hold are
/// read: the plain array (`83 …`) and SessionTranscriptBytes (`d8 18 …`, what Annex D and, it
/// seems, ProximityReader's `sessionTranscript` hand over).
public struct SessionTranscript: Sendable, Hashable {
    /// The SessionTranscript's CBOR encoding: the array, not tag 24 around it.
    public let bytes: [UInt8]

    /// A transcript read from `bytes`: the CBOR array of three, or tag 24 around a byte string
    /// holding it. Throws ``MdocError/Code/invalidSessionTranscript`` for anything else.
    public init(bytes: [UInt8]) throws(MdocError) {
        let value: CBORValue
        do { value = try CBOR.decode(bytes, options: MdocCBOR.options) } catch {
            throw MdocError(wrapping: error, as: .invalidSessionTranscript, context: "the session transcript (ISO/IEC 18013-5 §9.1.5.1)")
        }
        var inner = bytes
        var array = value
        if case .tagged(24, .bytes(let embedded)) = value {
            do { array = try CBOR.decode(embedded, options: MdocCBOR.options) } catch {
                throw MdocError(
                    wrapping: error, as: .invalidSessionTranscript, context: "the session transcript inside SessionTranscriptBytes (tag 24)"
                )
            }
            inner = embedded
        }
        guard case .array(let members) = array, members.count == 3 else {
            throw MdocError(
                .invalidSessionTranscript,
                "a SessionTranscript is an array of three: DeviceEngagementBytes, EReaderKeyBytes, Handover (ISO/IEC 18013-5 §9.1.5.1)")
        }
        self.bytes = inner
        (hasReaderKey, readerPublicKey) = try Self.readerKey(members[1])
    }

    /// Whether the transcript holds EReaderKeyBytes (false for the web's `[null, null, …]`): only
    /// then can a device have made a deviceMac for the session.
    public let hasReaderKey: Bool
    /// The reader's ephemeral public key the transcript holds (EReaderKeyBytes, tag 24 around a
    /// COSE_Key), when it is an EC2 key Sigil reads; a reader private key given for the session
    /// must match it.
    public let readerPublicKey: ECDSAPublicKey?

    /// EReaderKeyBytes: null, or tag 24 around a COSE_Key.
    static func readerKey(_ member: CBORValue) throws(MdocError) -> (Bool, ECDSAPublicKey?) {
        switch member {
        case .null: return (false, nil)
        case .tagged(24, .bytes(let inner)):
            guard let value = try? CBOR.decode(inner, options: MdocCBOR.options) else {
                throw MdocError(.invalidSessionTranscript, "the transcript's EReaderKeyBytes does not hold CBOR (ISO/IEC 18013-5 §9.1.5.1)")
            }
            return (true, try? COSEKey.publicKey(value))
        default:
            throw MdocError(
                .invalidSessionTranscript,
                "the transcript's EReaderKeyBytes is neither null nor tag 24 around a COSE_Key (ISO/IEC 18013-5 §9.1.5.1)")
        }
    }

    /// The ISO/IEC 18013-7 Annex C transcript of a request made through the Digital Credentials
    /// API: `[null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]]`, where
    /// `encryptionInfo` is the base64url text the request carried and `origin` the web origin that
    /// made it ("https://example.com").
    public static func digitalCredentialsAPI(encryptionInfo: String, origin: String) -> SessionTranscript {
        let info = CBOR.encode(.array([.text(encryptionInfo), .text(origin)]))
        let handover = CBORValue.array([.text("dcapi"), .bytes(SHA256.hash(info))])
        return SessionTranscript(webBytes: CBOR.encode(.array([.null, .null, handover])))
    }

    /// A transcript without EReaderKeyBytes, built here.
    init(webBytes: [UInt8]) {
        bytes = webBytes
        hasReaderKey = false
        readerPublicKey = nil
    }

    /// SessionTranscriptBytes: tag 24 around the transcript's bytes, what the deviceMac's salt
    /// hashes (§9.1.5.1).
    public var taggedBytes: [UInt8] { CBOR.encode(.tagged(24, .bytes(bytes))) }
}

/// The decoding limits of every mdoc structure: tags (24, 0, 1004, COSE's 17 and 18) and floats
/// allowed, indefinite lengths refused, map keys unique, depth and item count bounded.
enum MdocCBOR {
    /// The largest DeviceResponse read: 8 MiB (a response carries portraits of tens of KiB).
    static let maximumResponseBytes = 8 << 20

    static let options = CBORDecodingOptions(
        allowIndefiniteLengths: false, allowTags: true, allowFloats: true, requireSortedMapKeys: false, maximumDepth: 24,
        maximumItems: 1 << 18, maximumInputBytes: maximumResponseBytes)

    /// Decodes `bytes` as one item, a failure typed as `invalidCBOR` with `context`.
    static func decode(_ bytes: [UInt8], _ context: String) throws(MdocError) -> CBORValue {
        do { return try CBOR.decode(bytes, options: options) } catch {
            throw MdocError(wrapping: error, as: .invalidCBOR, context: context)
        }
    }

    /// The bytes tag 24 wraps (`#6.24(bstr .cbor T)`), for `name` under `clause`.
    static func embedded(_ value: CBORValue?, _ name: String, _ clause: String) throws(MdocError) -> [UInt8] {
        guard case .tagged(24, .bytes(let bytes))? = value else {
            throw MdocError(
                .malformedStructure, "\(name) is not tag 24 around a byte string (\(value.map { $0.kindName } ?? "absent")) (\(clause))")
        }
        return bytes
    }
}

/// The members of one CBOR map of an mdoc structure, read with typed errors naming the structure
/// and its clause. Members not named are ignored: later editions add members.
struct MdocMap {
    let entries: [CBORMapEntry]
    let name: String
    let clause: String

    init(_ value: CBORValue?, _ name: String, _ clause: String) throws(MdocError) {
        guard case .map(let entries)? = value else {
            throw MdocError(.malformedStructure, "\(name) is not a map (\(clause))")
        }
        (self.entries, self.name, self.clause) = (entries, name, clause)
    }

    subscript(key: String) -> CBORValue? { entries.first { $0.key == .text(key) }?.value }

    func required(_ key: String) throws(MdocError) -> CBORValue {
        guard let value = self[key] else { throw MdocError(.malformedStructure, "\(name) has no \"\(key)\" (\(clause))") }
        return value
    }

    func text(_ key: String) throws(MdocError) -> String {
        guard case .text(let text) = try required(key) else {
            throw MdocError(.malformedStructure, "\(name)'s \"\(key)\" is not a text string (\(clause))")
        }
        return text
    }

    func unsigned(_ key: String) throws(MdocError) -> UInt64 {
        guard case .unsigned(let n) = try required(key) else {
            throw MdocError(.malformedStructure, "\(name)'s \"\(key)\" is not an unsigned integer (\(clause))")
        }
        return n
    }

    func map(_ key: String, _ memberName: String) throws(MdocError) -> MdocMap {
        try MdocMap(try required(key), memberName, clause)
    }
}
