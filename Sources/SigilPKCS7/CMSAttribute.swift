import SigilASN1

/// A CMS attribute (RFC 5652 §5.3, Attribute): its type and values, as a SignerInfo signs them.
public struct CMSAttribute: Sendable {
    /// The attribute's type.
    public let type: ASN1ObjectIdentifier
    /// Each value's encoding.
    public let values: [[UInt8]]
}
