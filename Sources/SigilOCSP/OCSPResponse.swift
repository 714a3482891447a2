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
    public enum Status: Int, Hashable, Sendable, CustomStringConvertible {
        case successful = 0
        case malformedRequest = 1
        case internalError = 2
        case tryLater = 3
        case sigRequired = 5
        case unauthorized = 6
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

    public let status: Status
    /// Present exactly when the status is successful.
    public let basic: BasicOCSPResponse?

    /// The largest response accepted (a real one is a few KiB).
    public static let maximumSize = 1 << 20

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
            throw ocspError(error, context: "OCSP response")
        }
    }
}

public struct BasicOCSPResponse: Hashable, Sendable {
    public enum ResponderID: Hashable, Sendable {
        case byName(DistinguishedName)
        /// SHA-1 of the responder's subjectPublicKey BIT STRING contents.
        case byKey([UInt8])
    }

    /// The encoded ResponseData: what the responder signed.
    public let tbsResponseData: [UInt8]
    public let version: Int
    public let responderID: ResponderID
    public let producedAt: Int64
    public let responses: [SingleResponse]
    public let responseExtensions: [Extension]
    public let signatureAlgorithmIdentifier: AlgorithmIdentifier
    public let signatureAlgorithm: SignatureAlgorithm
    public let signature: [UInt8]
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

public struct SingleResponse: Hashable, Sendable {
    public enum CertStatus: Hashable, Sendable, CustomStringConvertible {
        case good
        /// Revocation time (seconds since the epoch) and CRLReason (RFC 5280 §5.3.1), if given.
        case revoked(time: Int64, reason: Int?)
        case unknown

        public var description: String {
            switch self {
            case .good: "good"
            case .revoked(let time, let reason): "revoked at \(time)" + (reason.map { " (reason \($0))" } ?? "")
            case .unknown: "unknown"
            }
        }
    }

    public let certID: CertID
    public let status: CertStatus
    public let thisUpdate: Int64
    public let nextUpdate: Int64?
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
