import SigilASN1

/// Object identifiers of CRLs (RFC 5280 §5.2 CRL extensions, §5.3 CRL entry extensions).
extension X509OIDs {
    /// cRLNumber (RFC 5280 §5.2.3).
    public static let cRLNumber: ASN1ObjectIdentifier = [2, 5, 29, 20]
    /// reasonCode, a CRL entry extension (§5.3.1).
    public static let reasonCode: ASN1ObjectIdentifier = [2, 5, 29, 21]
    /// invalidityDate, a CRL entry extension (§5.3.2).
    public static let invalidityDate: ASN1ObjectIdentifier = [2, 5, 29, 24]
    /// deltaCRLIndicator (§5.2.4).
    public static let deltaCRLIndicator: ASN1ObjectIdentifier = [2, 5, 29, 27]
    /// issuingDistributionPoint (§5.2.5).
    public static let issuingDistributionPoint: ASN1ObjectIdentifier = [2, 5, 29, 28]
    /// certificateIssuer, a CRL entry extension of indirect CRLs (§5.3.3).
    public static let certificateIssuer: ASN1ObjectIdentifier = [2, 5, 29, 29]
    /// freshestCRL: where the delta CRLs are (§4.2.1.15, §5.2.6).
    public static let freshestCRL: ASN1ObjectIdentifier = [2, 5, 29, 46]

    static let crlNames: [ASN1ObjectIdentifier: String] = [
        cRLNumber: "cRLNumber", reasonCode: "reasonCode", invalidityDate: "invalidityDate",
        deltaCRLIndicator: "deltaCRLIndicator", issuingDistributionPoint: "issuingDistributionPoint",
        certificateIssuer: "certificateIssuer", freshestCRL: "freshestCRL",
    ]
}
