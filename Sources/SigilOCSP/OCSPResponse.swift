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
        var reader: ASN1SequenceReader
        let status: Status
        do throws(ASN1Error) {
            reader = try ASN1SequenceReader(checking: DER.parse(data), identifier: .sequence)
            let statusNode = try reader.next(.enumerated)
            let raw = try ASN1Integer(node: statusNode, identifier: .enumerated).intValue()
            guard let known = Status(rawValue: raw) else {
                throw statusNode.error(.integerOutOfRange, "OCSPResponseStatus \(raw) is not defined")
            }
            status = known
        } catch {
            throw OCSPError.malformed(error)
        }
        var basic: BasicOCSPResponse?
        if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
            var r: ASN1SequenceReader
            let type: ASN1ObjectIdentifier
            let content: [UInt8]
            do {
                r = try ASN1SequenceReader(checking: ASN1.explicitInner(tagged, tag: .contextSpecific(0)), identifier: .sequence)
                type = try ASN1ObjectIdentifier(node: r.next(.objectIdentifier))
                content = try ASN1OctetString(node: r.next(.octetString)).bytes
            } catch {
                throw OCSPError.malformed(error)
            }
            guard type == OCSPOIDs.basicResponse else {
                throw OCSPError(.unsupportedResponseType, "response type \(type) is not id-pkix-ocsp-basic")
            }
            basic = try BasicOCSPResponse(derEncoded: content)
            do {
                try r.finish()
            } catch {
                throw OCSPError.malformed(error)
            }
        }
        guard (status == .successful) == (basic != nil) else {
            throw OCSPError(
                .malformed,
                status == .successful
                    ? "a successful response without responseBytes"
                    : "responseBytes with status \(status)")
        }
        do {
            try reader.finish()
        } catch {
            throw OCSPError.malformed(error)
        }
        (self.status, self.basic) = (status, basic)
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

    init(derEncoded bytes: [UInt8]) throws(OCSPError) {
        var reader: ASN1SequenceReader
        let data: ASN1Node
        var r: ASN1SequenceReader
        do {
            reader = try ASN1SequenceReader(checking: DER.parse(bytes), identifier: .sequence)
            data = try reader.next(.sequence)
            r = try ASN1SequenceReader(checking: data, identifier: .sequence)
        } catch {
            throw OCSPError.malformed(error)
        }
        if let tagged = r.nextIfPresent(.contextSpecific(0)) {
            let value: Int
            do {
                value = try ASN1Integer(node: ASN1.explicitInner(tagged, tag: .contextSpecific(0))).intValue()
            } catch {
                throw OCSPError.malformed(error)
            }
            guard value != 0 else {
                throw OCSPError.malformed(tagged.error(.integerOutOfRange, "version v1 is encoded although it is the DEFAULT"))
            }
            throw OCSPError(.malformed, "ResponseData version \(value + 1) is not v1")
        }
        let responderNode: ASN1Node
        do {
            responderNode = try r.next()
        } catch {
            throw OCSPError.malformed(error)
        }
        let responder: ResponderID
        switch responderNode.identifier {
        case .contextSpecific(1):
            do {
                responder = .byName(try DistinguishedName(node: ASN1.explicitInner(responderNode, tag: .contextSpecific(1))))
            } catch {
                throw OCSPError.malformed(error)
            }
        case .contextSpecific(2):
            let hash: [UInt8]
            do {
                hash = try ASN1OctetString(node: ASN1.explicitInner(responderNode, tag: .contextSpecific(2))).bytes
            } catch {
                throw OCSPError.malformed(error)
            }
            guard hash.count == 20 else { throw OCSPError(.malformed, "responderID byKey is not a 20-byte SHA-1 hash") }
            responder = .byKey(hash)
        default:
            throw OCSPError.malformed(responderNode.error(.unexpectedTag, "ResponderID must be [1] byName or [2] byKey"))
        }
        let producedAt: Int64
        let list: ASN1Node
        do {
            producedAt = try ASN1GeneralizedTime(node: r.next(.generalizedTime)).components.secondsSinceEpoch
            list = try r.next(.sequence)
            try ASN1.expect(list, .sequence, constructed: true)
        } catch {
            throw OCSPError.malformed(error)
        }
        var responses: [SingleResponse] = []
        for child in list.children { responses.append(try SingleResponse(node: child)) }
        var extensions: [Extension] = []
        if let tagged = r.nextIfPresent(.contextSpecific(1)) {
            extensions = try OCSPError.extensions(tagged)
        }
        var signatureBits: ASN1BitString
        do {
            try r.finish()
            signatureAlgorithmIdentifier = try AlgorithmIdentifier(node: reader.next(.sequence))
            signatureBits = try ASN1BitString(node: reader.next(.bitString))
        } catch {
            throw OCSPError.malformed(error)
        }
        var certificates: [Certificate] = []
        if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
            let list: ASN1Node
            do {
                list = try ASN1.explicitInner(tagged, tag: .contextSpecific(0))
                try ASN1.expect(list, .sequence, constructed: true)
            } catch {
                throw OCSPError.malformed(error)
            }
            for child in list.children {
                do {
                    certificates.append(try Certificate(derEncoded: child.encodedBytes))
                } catch {
                    throw OCSPError.malformed(error)
                }
            }
        }
        do {
            try reader.finish()
        } catch {
            throw OCSPError.malformed(error)
        }
        guard signatureBits.unusedBits == 0 else { throw OCSPError(.malformed, "signature has unused bits") }
        guard !responses.isEmpty else { throw OCSPError(.malformed, "a response with no SingleResponse") }
        tbsResponseData = Array(data.encodedBytes)
        version = 1
        responderID = responder
        self.producedAt = producedAt
        self.responses = responses
        responseExtensions = extensions
        do {
            signatureAlgorithm = try SignatureAlgorithm(signatureAlgorithmIdentifier)
        } catch {
            throw OCSPError.malformed(error)
        }
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

    init(node: ASN1Node) throws(OCSPError) {
        var reader: ASN1SequenceReader
        let idNode: ASN1Node
        do {
            reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
            idNode = try reader.next(.sequence)
        } catch {
            throw OCSPError.malformed(error)
        }
        certID = try CertID(node: idNode)
        do throws(ASN1Error) {
            let statusNode = try reader.next()
            switch statusNode.identifier {
            case .contextSpecific(0):
                _ = try ASN1Null(node: statusNode, identifier: .contextSpecific(0))
                status = .good
            case .contextSpecific(1):
                var r = try ASN1SequenceReader(checking: statusNode, identifier: .contextSpecific(1))
                let time = try ASN1GeneralizedTime(node: r.next(.generalizedTime)).components.secondsSinceEpoch
                var reason: Int?
                if let tagged = r.nextIfPresent(.contextSpecific(0)) {
                    let value = try ASN1Integer(node: ASN1.explicitInner(tagged, tag: .contextSpecific(0)), identifier: .enumerated)
                        .intValue()
                    // CRLReason: 0–10 except 7 (RFC 5280 §5.3.1).
                    guard (0...10).contains(value), value != 7 else {
                        throw tagged.error(.integerOutOfRange, "CRLReason \(value) is not defined")
                    }
                    reason = value
                }
                try r.finish()
                status = .revoked(time: time, reason: reason)
            case .contextSpecific(2):
                _ = try ASN1Null(node: statusNode, identifier: .contextSpecific(2))
                status = .unknown
            default:
                throw statusNode.error(.unexpectedTag, "CertStatus must be [0] good, [1] revoked or [2] unknown")
            }
            thisUpdate = try ASN1GeneralizedTime(node: reader.next(.generalizedTime)).components.secondsSinceEpoch
            var next: Int64?
            if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
                next = try ASN1GeneralizedTime(node: ASN1.explicitInner(tagged, tag: .contextSpecific(0))).components.secondsSinceEpoch
            }
            nextUpdate = next
        } catch {
            throw OCSPError.malformed(error)
        }
        var extensions: [Extension] = []
        if let tagged = reader.nextIfPresent(.contextSpecific(1)) {
            extensions = try OCSPError.extensions(tagged)
        }
        singleExtensions = extensions
        do {
            try reader.finish()
        } catch {
            throw OCSPError.malformed(error)
        }
    }
}
