import SigilASN1

/// Object identifiers of CRLs (RFC 5280 §5.2 CRL extensions, §5.3 CRL entry extensions).
extension X509OIDs {
    public static let cRLNumber: ASN1ObjectIdentifier = [2, 5, 29, 20]
    public static let reasonCode: ASN1ObjectIdentifier = [2, 5, 29, 21]
    public static let invalidityDate: ASN1ObjectIdentifier = [2, 5, 29, 24]
    public static let deltaCRLIndicator: ASN1ObjectIdentifier = [2, 5, 29, 27]
    public static let issuingDistributionPoint: ASN1ObjectIdentifier = [2, 5, 29, 28]
    public static let certificateIssuer: ASN1ObjectIdentifier = [2, 5, 29, 29]
    public static let freshestCRL: ASN1ObjectIdentifier = [2, 5, 29, 46]

    static let crlNames: [ASN1ObjectIdentifier: String] = [
        cRLNumber: "cRLNumber", reasonCode: "reasonCode", invalidityDate: "invalidityDate",
        deltaCRLIndicator: "deltaCRLIndicator", issuingDistributionPoint: "issuingDistributionPoint",
        certificateIssuer: "certificateIssuer", freshestCRL: "freshestCRL",
    ]
}
