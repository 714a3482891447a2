import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// OCSPRequest (RFC 6960 §4.1.1), unsigned:
///
/// ```
/// OCSPRequest ::= SEQUENCE {
///     tbsRequest              TBSRequest,
///     optionalSignature   [0] EXPLICIT Signature OPTIONAL }
/// TBSRequest ::= SEQUENCE {
///     version             [0] EXPLICIT Version DEFAULT v1,
///     requestorName       [1] EXPLICIT GeneralName OPTIONAL,
///     requestList             SEQUENCE OF Request,
///     requestExtensions   [2] EXPLICIT Extensions OPTIONAL }
/// Request ::= SEQUENCE {
///     reqCert                     CertID,
///     singleRequestExtensions [0] EXPLICIT Extensions OPTIONAL }
/// ```
/// The nonce (RFC 8954) is the request extension id-pkix-ocsp-nonce whose extnValue is the DER of
/// an OCTET STRING of 1 to 32 bytes (32 random bytes by default).
public struct OCSPRequest: Hashable, Sendable {
    /// The certificates asked about, one CertID each.
    public let certIDs: [CertID]
    /// The nonce the response must echo, when one is sent.
    public let nonce: [UInt8]?
    /// requestorName as a directory name, when given.
    public let requestorName: DistinguishedName?

    /// The largest nonce RFC 8954 allows.
    public static let maximumNonceLength = 32

    /// A request for `certIDs` (at least one), with `nonce` (1 to 32 bytes) when given and `requestorName` when given.
    public init(certIDs: [CertID], nonce: [UInt8]? = nil, requestorName: DistinguishedName? = nil) throws(OCSPError) {
        guard !certIDs.isEmpty else { throw OCSPError(.invalidArgument, "an OCSP request needs at least one CertID") }
        if let nonce {
            guard (1...OCSPRequest.maximumNonceLength).contains(nonce.count) else {
                throw OCSPError(.invalidArgument, "an OCSP nonce is 1 to 32 bytes (RFC 8954), not \(nonce.count)")
            }
        }
        self.certIDs = certIDs
        self.nonce = nonce
        self.requestorName = requestorName
    }

    /// One certificate, with a fresh 32-byte nonce from `random` unless `withNonce` is false.
    public static func forCertificate<R: RandomNumberGenerator>(
        _ certificate: Certificate, issuer: Certificate, hash: HashAlgorithm = .sha1,
        withNonce: Bool = true, using random: inout R
    ) -> OCSPRequest {
        var nonce: [UInt8]?
        if withNonce {
            nonce = (0..<OCSPRequest.maximumNonceLength).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        // Valid by construction: one CertID, a 32-byte nonce.
        return OCSPRequest(unchecked: [CertID(certificate: certificate, issuer: issuer, hash: hash)], nonce: nonce)
    }

    private init(unchecked certIDs: [CertID], nonce: [UInt8]?) {
        self.certIDs = certIDs
        self.nonce = nonce
        self.requestorName = nil
    }

    /// The DER encoding (what is POSTed as application/ocsp-request).
    public var derRepresentation: [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { request in
            request.appendSequence { tbs in
                if let requestorName {
                    tbs.appendExplicit(.contextSpecific(1)) { name in
                        name.appendExplicit(.contextSpecific(4)) { $0.appendEncoded(requestorName.derBytes) }
                    }
                }
                tbs.appendSequence { list in
                    for id in certIDs {
                        list.appendSequence { id.encode(into: &$0) }
                    }
                }
                if let nonce {
                    tbs.appendExplicit(.contextSpecific(2)) { extensions in
                        extensions.appendSequence { list in
                            list.appendSequence { ext in
                                ext.append(OCSPOIDs.nonce)
                                ext.append(ASN1OctetString(DER.encode(ASN1OctetString(nonce))))
                            }
                        }
                    }
                }
            }
        }
        return writer.bytes
    }
}
