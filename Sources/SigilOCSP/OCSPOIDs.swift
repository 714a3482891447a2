import SigilASN1

/// OCSP object identifiers (RFC 6960 §4.4, RFC 8954).
public enum OCSPOIDs {
    /// id-pkix-ocsp-basic: the response type of a BasicOCSPResponse.
    public static let basicResponse: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1, 1]
    /// id-pkix-ocsp-nonce: the nonce extension of requests and responses.
    public static let nonce: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1, 2]
}
