import SigilX509

/// How a SignerInfo (RFC 5652 §5.3, SignerIdentifier) names its signer's certificate.
public enum CMSSignerIdentifier: Sendable {
    /// By the certificate's issuer and serial number.
    case issuerAndSerialNumber(issuer: DistinguishedName, serial: [UInt8])
    /// By the certificate's subjectKeyIdentifier.
    case subjectKeyIdentifier([UInt8])
}
