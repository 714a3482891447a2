import SigilASN1

/// Object identifiers of the certificate layer, each with the document that assigns it.
public enum X509OIDs {
    // Signature algorithms: RFC 5758 §3.2 (ECDSA), RFC 8017 §A.2.4 / RFC 4055 §5 (RSA).
    /// ecdsa-with-SHA256.
    public static let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
    /// ecdsa-with-SHA384.
    public static let ecdsaWithSHA384: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 3]
    /// ecdsa-with-SHA512.
    public static let ecdsaWithSHA512: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 4]
    /// sha1WithRSAEncryption.
    public static let sha1WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 5]
    /// sha256WithRSAEncryption.
    public static let sha256WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 11]
    /// sha384WithRSAEncryption.
    public static let sha384WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 12]
    /// sha512WithRSAEncryption.
    public static let sha512WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 13]
    /// id-RSASSA-PSS.
    public static let rsassaPSS: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 10]

    // Extensions: RFC 5280 §4.2.1 (id-ce) and §4.2.2 (id-pe).
    /// subjectKeyIdentifier.
    public static let subjectKeyIdentifier: ASN1ObjectIdentifier = [2, 5, 29, 14]
    /// keyUsage.
    public static let keyUsage: ASN1ObjectIdentifier = [2, 5, 29, 15]
    /// subjectAltName.
    public static let subjectAltName: ASN1ObjectIdentifier = [2, 5, 29, 17]
    /// issuerAltName.
    public static let issuerAltName: ASN1ObjectIdentifier = [2, 5, 29, 18]
    /// basicConstraints.
    public static let basicConstraints: ASN1ObjectIdentifier = [2, 5, 29, 19]
    /// nameConstraints.
    public static let nameConstraints: ASN1ObjectIdentifier = [2, 5, 29, 30]
    /// cRLDistributionPoints.
    public static let cRLDistributionPoints: ASN1ObjectIdentifier = [2, 5, 29, 31]
    /// certificatePolicies.
    public static let certificatePolicies: ASN1ObjectIdentifier = [2, 5, 29, 32]
    /// policyMappings.
    public static let policyMappings: ASN1ObjectIdentifier = [2, 5, 29, 33]
    /// authorityKeyIdentifier.
    public static let authorityKeyIdentifier: ASN1ObjectIdentifier = [2, 5, 29, 35]
    /// policyConstraints.
    public static let policyConstraints: ASN1ObjectIdentifier = [2, 5, 29, 36]
    /// extKeyUsage.
    public static let extKeyUsage: ASN1ObjectIdentifier = [2, 5, 29, 37]
    /// inhibitAnyPolicy.
    public static let inhibitAnyPolicy: ASN1ObjectIdentifier = [2, 5, 29, 54]
    /// authorityInfoAccess.
    public static let authorityInfoAccess: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 1, 1]

    // Access methods (RFC 5280 §4.2.2.1) and policy qualifiers (§4.2.1.4).
    /// id-ad-ocsp: an OCSP responder's location.
    public static let accessOCSP: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1]
    /// id-ad-caIssuers: where the issuer's certificate can be fetched.
    public static let accessCAIssuers: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 2]
    /// id-qt-cps: a certification practice statement's URI.
    public static let qualifierCPS: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 2, 1]
    /// id-qt-unotice: a user notice.
    public static let qualifierUserNotice: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 2, 2]
    /// anyPolicy.
    public static let anyPolicy: ASN1ObjectIdentifier = [2, 5, 29, 32, 0]

    // Extended key usages (RFC 5280 §4.2.1.12).
    /// anyExtendedKeyUsage.
    public static let anyExtendedKeyUsage: ASN1ObjectIdentifier = [2, 5, 29, 37, 0]
    /// id-kp-serverAuth.
    public static let serverAuth: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 1]
    /// id-kp-clientAuth.
    public static let clientAuth: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 2]
    /// id-kp-codeSigning.
    public static let codeSigning: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 3]
    /// id-kp-emailProtection.
    public static let emailProtection: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 4]
    /// id-kp-timeStamping.
    public static let timeStamping: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 8]
    /// id-kp-OCSPSigning.
    public static let ocspSigning: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 9]

    /// Names for display (`sigil x509 show`) of the OIDs above and of common attribute types.
    public static func name(_ oid: ASN1ObjectIdentifier) -> String? {
        names[oid] ?? crlNames[oid]
    }

    static let names: [ASN1ObjectIdentifier: String] = [
        ecdsaWithSHA256: "ecdsa-with-SHA256", ecdsaWithSHA384: "ecdsa-with-SHA384", ecdsaWithSHA512: "ecdsa-with-SHA512",
        sha1WithRSAEncryption: "sha1WithRSAEncryption", sha256WithRSAEncryption: "sha256WithRSAEncryption",
        sha384WithRSAEncryption: "sha384WithRSAEncryption", sha512WithRSAEncryption: "sha512WithRSAEncryption",
        rsassaPSS: "rsassaPss", [1, 2, 840, 113549, 1, 1, 1]: "rsaEncryption", [1, 2, 840, 10045, 2, 1]: "id-ecPublicKey",
        subjectKeyIdentifier: "subjectKeyIdentifier", keyUsage: "keyUsage", subjectAltName: "subjectAltName",
        issuerAltName: "issuerAltName", basicConstraints: "basicConstraints", nameConstraints: "nameConstraints",
        cRLDistributionPoints: "cRLDistributionPoints", certificatePolicies: "certificatePolicies",
        policyMappings: "policyMappings", authorityKeyIdentifier: "authorityKeyIdentifier",
        policyConstraints: "policyConstraints", extKeyUsage: "extKeyUsage", inhibitAnyPolicy: "inhibitAnyPolicy",
        authorityInfoAccess: "authorityInfoAccess", accessOCSP: "OCSP", accessCAIssuers: "caIssuers",
        anyExtendedKeyUsage: "anyExtendedKeyUsage", serverAuth: "serverAuth", clientAuth: "clientAuth",
        codeSigning: "codeSigning", emailProtection: "emailProtection", timeStamping: "timeStamping",
        ocspSigning: "OCSPSigning", anyPolicy: "anyPolicy",
    ]
}
