import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// OCSPResponse and BasicOCSPResponse (RFC 6960 §4.2.1):
///
/// ```
/// OCSPResponse ::= SEQUENCE {
///     responseStatus         OCSPResponseStatus,
///     responseBytes      [0] EXPLICIT ResponseBytes OPTIONAL }
/// OCSPResponseStatus ::= ENUMERATED { successful (0), malformedRequest (1), internalError (2),
///     tryLater (3), -- (4) is not used -- sigRequired (5), unauthorized (6) }
/// ResponseBytes ::= SEQUENCE { responseType OBJECT IDENTIFIER, response OCTET STRING }
/// BasicOCSPResponse ::= SEQUENCE {
///     tbsResponseData      ResponseData,
///     signatureAlgorithm   AlgorithmIdentifier,
///     signature            BIT STRING,
///     certs            [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL }
/// ResponseData ::= SEQUENCE {
///     version              [0] EXPLICIT Version DEFAULT v1,
///     responderID              ResponderID,
///     producedAt               GeneralizedTime,
///     responses                SEQUENCE OF SingleResponse,
///     responseExtensions   [1] EXPLICIT Extensions OPTIONAL }
/// ResponderID ::= CHOICE { byName [1] Name, byKey [2] KeyHash }   -- KeyHash ::= OCTET STRING
/// SingleResponse ::= SEQUENCE {
///     certID                       CertID,
///     certStatus                   CertStatus,
///     thisUpdate                   GeneralizedTime,
///     nextUpdate           [0] EXPLICIT GeneralizedTime OPTIONAL,
///     singleExtensions     [1] EXPLICIT Extensions OPTIONAL }
/// CertStatus ::= CHOICE { good [0] IMPLICIT NULL, revoked [1] IMPLICIT RevokedInfo,
///     unknown [2] IMPLICIT UnknownInfo }   -- UnknownInfo ::= NULL
/// RevokedInfo ::= SEQUENCE { revocationTime GeneralizedTime, revocationReason [0] EXPLICIT CRLReason OPTIONAL }
/// ```
public struct OCSPResponse: Hashable, Sendable {
    /// The responseStatus of an OCSP response (RFC 6960 §4.2.1).
    public enum Status: Int, Hashable, Sendable, CustomStringConvertible {
        /// The response carries a BasicOCSPResponse.
        case successful = 0
        /// The responder could not read the request.
        case malformedRequest = 1
        /// The responder failed internally.
        case internalError = 2
        /// The responder is busy: ask again later.
        case tryLater = 3
        /// The responder requires signed requests.
        case sigRequired = 5
        /// The responder will not answer this client.
        case unauthorized = 6
        /// The status's name in RFC 6960.
        public var description: String {
            switch self {
            case .successful: "successful"
            case .malformedRequest: "malformedRequest"
            case .internalError: "internalError"
            case .tryLater: "tryLater"
            case .sigRequired: "sigRequired"
            case .unauthorized: "unauthorized"
            }
        }
    }

    /// The responder's answer to the request as a whole.
    public let status: Status
    /// Present exactly when the status is successful.
    public let basic: BasicOCSPResponse?

    /// The largest response accepted (a real one is a few KiB).
    public static let maximumSize = 1 << 20

    /// Decodes a DER OCSPResponse of at most `maximumSize` bytes; nothing is verified here.
    public init<Bytes: Collection>(derEncoded bytes: Bytes) throws(OCSPError) where Bytes.Element == UInt8 {
        let data = Array(bytes)
        guard data.count <= OCSPResponse.maximumSize else {
            throw OCSPError(.malformed, "OCSP response of \(data.count) bytes exceeds \(OCSPResponse.maximumSize)")
        }
        do {
            (status, basic) = try ASN1.sequence(DER.parse(data)) { reader in
                let statusNode = try reader.next(.enumerated)
                let raw = try ASN1Integer(node: statusNode, identifier: .enumerated).intValue()
                guard let status = Status(rawValue: raw) else {
                    throw statusNode.error(.integerOutOfRange, "OCSPResponseStatus \(raw) is not defined")
                }
                var basic: BasicOCSPResponse?
                if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
                    basic = try ASN1.explicit(tagged, tag: .contextSpecific(0)) { bytesNode in
                        try ASN1.sequence(bytesNode) { r in
                            let type = try ASN1ObjectIdentifier(node: r.next(.objectIdentifier))
                            let content = try ASN1OctetString(node: r.next(.octetString)).bytes
                            guard type == OCSPOIDs.basicResponse else {
                                throw OCSPError(.unsupportedResponseType, "response type \(type) is not id-pkix-ocsp-basic")
                            }
                            return try BasicOCSPResponse(derEncoded: content)
                        }
                    }
                }
                guard (status == .successful) == (basic != nil) else {
                    throw OCSPError(
                        .malformed,
                        status == .successful
                            ? "a successful response without responseBytes"
                            : "responseBytes with status \(status)")
                }
                return (status, basic)
            }
        } catch {
            throw OCSPError(wrapping: error, as: .malformed, context: "OCSP response")
        }
    }
}

/// The signed body of a successful OCSP response (RFC 6960 §4.2.1): who answered, when, the answers
/// for each certificate, the signature, and certificates that help verify it.
public struct BasicOCSPResponse: Hashable, Sendable {
    /// How the response names its signer.
    public enum ResponderID: Hashable, Sendable {
        /// The responder's subject name.
        case byName(DistinguishedName)
        /// SHA-1 of the responder's subjectPublicKey BIT STRING contents.
        case byKey([UInt8])
    }

    /// The encoded ResponseData: what the responder signed.
    public let tbsResponseData: [UInt8]
    /// The ResponseData version (0 for v1, the only one defined).
    public let version: Int
    /// Who signed the response.
    public let responderID: ResponderID
    /// When the response was signed, seconds since 1970.
    public let producedAt: Int64
    /// One answer per certificate asked about.
    public let responses: [SingleResponse]
    /// The response extensions (the nonce among them).
    public let responseExtensions: [Extension]
    /// The signature algorithm as encoded.
    public let signatureAlgorithmIdentifier: AlgorithmIdentifier
    /// The signature algorithm, decoded.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The signature over `tbsResponseData`.
    public let signature: [UInt8]
    /// The certificates the responder sent along (a delegated responder's certificate, typically).
    public let certificates: [Certificate]

    /// The nonce extension's value (the OCTET STRING's content), when present.
    public var nonce: [UInt8]? {
        guard let ext = responseExtensions.first(where: { $0.oid == OCSPOIDs.nonce }),
            let node = try? DER.parse(ext.rawValue), let octets = try? ASN1OctetString(node: node)
        else { return nil }
        return octets.bytes
    }

    /// Set when the nonce extension is present but its value is not an OCTET STRING (RFC 8954
    /// requires one; some responders put the raw bytes there).
    public var nonceRawValue: [UInt8]? { responseExtensions.first { $0.oid == OCSPOIDs.nonce }?.rawValue }

    init(derEncoded bytes: [UInt8]) throws {
        var fields:
            (tbs: [UInt8], version: Int, responder: ResponderID, producedAt: Int64, responses: [SingleResponse], extensions: [Extension])?
        var algorithm: AlgorithmIdentifier?
        var signatureBits: ASN1BitString?
        var certificates: [Certificate] = []
        try ASN1.sequence(DER.parse(bytes)) { reader in
            let data = try reader.next(.sequence)
            fields = try ASN1.sequence(data) { r in
                var version = 1
                if let tagged = r.nextIfPresent(.contextSpecific(0)) {
                    let value = try ASN1.explicit(tagged, tag: .contextSpecific(0)) { try ASN1Integer(node: $0).intValue() }
                    guard value != 0 else { throw tagged.error(.integerOutOfRange, "version v1 is encoded although it is the DEFAULT") }
                    throw OCSPError(.malformed, "ResponseData version \(value + 1) is not v1")
                }
                let responderNode = try r.next()
                let responder: ResponderID
                switch responderNode.identifier {
                case .contextSpecific(1):
                    responder = .byName(try ASN1.explicit(responderNode, tag: .contextSpecific(1)) { try DistinguishedName(node: $0) })
                case .contextSpecific(2):
                    let hash = try ASN1.explicit(responderNode, tag: .contextSpecific(2)) { try ASN1OctetString(node: $0).bytes }
                    guard hash.count == 20 else { throw OCSPError(.malformed, "responderID byKey is not a 20-byte SHA-1 hash") }
                    responder = .byKey(hash)
                default:
                    throw responderNode.error(.unexpectedTag, "ResponderID must be [1] byName or [2] byKey")
                }
                let producedAt = try ASN1GeneralizedTime(node: r.next(.generalizedTime)).components.secondsSinceEpoch
                let responses = try ASN1.sequenceOf(r.next(.sequence)) { try SingleResponse(node: $0) }
                var extensions: [Extension] = []
                if let tagged = r.nextIfPresent(.contextSpecific(1)) {
                    extensions = try ASN1.explicit(tagged, tag: .contextSpecific(1)) { list in
                        try ASN1.sequenceOf(list) { try Extension(node: $0) }
                    }
                }
                version = 1
                return (Array(data.encodedBytes), version, responder, producedAt, responses, extensions)
            }
            algorithm = try AlgorithmIdentifier(node: reader.next(.sequence))
            signatureBits = try ASN1BitString(node: reader.next(.bitString))
            if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
                certificates = try ASN1.explicit(tagged, tag: .contextSpecific(0)) { list in
                    try ASN1.sequenceOf(list) { try Certificate(derEncoded: $0.encodedBytes) }
                }
            }
        }
        guard let fields, let algorithm, let signatureBits else { throw OCSPError(.malformed, "BasicOCSPResponse") }
        guard signatureBits.unusedBits == 0 else { throw OCSPError(.malformed, "signature has unused bits") }
        guard !fields.responses.isEmpty else { throw OCSPError(.malformed, "a response with no SingleResponse") }
        tbsResponseData = fields.tbs
        version = fields.version
        responderID = fields.responder
        producedAt = fields.producedAt
        responses = fields.responses
        responseExtensions = fields.extensions
        signatureAlgorithmIdentifier = algorithm
        signatureAlgorithm = try SignatureAlgorithm(algorithm)
        signature = signatureBits.bytes
        self.certificates = certificates
    }
}

/// The answer for one certificate (RFC 6960 §4.2.1): its CertID, its status, and the period the
/// answer is valid for.
public struct SingleResponse: Hashable, Sendable {
    /// What the responder says about the certificate.
    public enum CertStatus: Hashable, Sendable, CustomStringConvertible {
        /// Not revoked.
        case good
        /// Revocation time (seconds since the epoch) and CRLReason (RFC 5280 §5.3.1), if given.
        case revoked(time: Int64, reason: Int?)
        /// The responder does not know the certificate.
        case unknown

        /// "good", "revoked at TIME (reason N)" or "unknown".
        public var description: String {
            switch self {
            case .good: "good"
            case .revoked(let time, let reason): "revoked at \(time)" + (reason.map { " (reason \($0))" } ?? "")
            case .unknown: "unknown"
            }
        }
    }

    /// The certificate the answer is about.
    public let certID: CertID
    /// Its status.
    public let status: CertStatus
    /// When the status was known to be correct, seconds since 1970.
    public let thisUpdate: Int64
    /// When newer information will be available, seconds since 1970; nil when always.
    public let nextUpdate: Int64?
    /// The answer's extensions.
    public let singleExtensions: [Extension]

    init(node: ASN1Node) throws {
        (certID, status, thisUpdate, nextUpdate, singleExtensions) = try ASN1.sequence(node) { reader in
            let id = try CertID(node: reader.next(.sequence))
            let statusNode = try reader.next()
            let status: CertStatus
            switch statusNode.identifier {
            case .contextSpecific(0):
                _ = try ASN1Null(node: statusNode, identifier: .contextSpecific(0))
                status = .good
            case .contextSpecific(1):
                status = try ASN1.sequence(statusNode, identifier: .contextSpecific(1)) { r in
                    let time = try ASN1GeneralizedTime(node: r.next(.generalizedTime)).components.secondsSinceEpoch
                    var reason: Int?
                    if let tagged = r.nextIfPresent(.contextSpecific(0)) {
                        let value = try ASN1.explicit(tagged, tag: .contextSpecific(0)) {
                            try ASN1Integer(node: $0, identifier: .enumerated).intValue()
                        }
                        // CRLReason: 0–10 except 7 (RFC 5280 §5.3.1).
                        guard (0...10).contains(value), value != 7 else {
                            throw tagged.error(.integerOutOfRange, "CRLReason \(value) is not defined")
                        }
                        reason = value
                    }
                    return .revoked(time: time, reason: reason)
                }
            case .contextSpecific(2):
                _ = try ASN1Null(node: statusNode, identifier: .contextSpecific(2))
                status = .unknown
            default:
                throw statusNode.error(.unexpectedTag, "CertStatus must be [0] good, [1] revoked or [2] unknown")
            }
            let thisUpdate = try ASN1GeneralizedTime(node: reader.next(.generalizedTime)).components.secondsSinceEpoch
            var nextUpdate: Int64?
            if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
                nextUpdate = try ASN1.explicit(tagged, tag: .contextSpecific(0)) {
                    try ASN1GeneralizedTime(node: $0).components.secondsSinceEpoch
                }
            }
            var extensions: [Extension] = []
            if let tagged = reader.nextIfPresent(.contextSpecific(1)) {
                extensions = try ASN1.explicit(tagged, tag: .contextSpecific(1)) { list in
                    try ASN1.sequenceOf(list) { try Extension(node: $0) }
                }
            }
            return (id, status, thisUpdate, nextUpdate, extensions)
        }
    }
}
