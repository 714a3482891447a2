import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCore
import SigilX509

/// What App Attest reads from the credential certificate (x5c[0]): the nonce extension it checks,
/// and the app and OS information Apple adds, which it reports.
public struct CredentialCertificateInfo: Sendable, Hashable {
    /// The nonce of extension 1.2.840.113635.100.8.2.
    public let nonce: [UInt8]
    /// The fields of 1.2.840.113635.100.8.5 (app and environment information), by tag.
    public let appInfo: [TaggedField]
    /// The fields of 1.2.840.113635.100.8.7 (operating system information), by tag.
    public let osInfo: [TaggedField]
    /// Whether 1.2.840.113635.100.8.6 (key access policy, macOS) is present.
    public let hasKeyAccessPolicy: Bool

    /// The App ID of 1.2.840.113635.100.8.5, tag 1204 ("TEAMID.bundle.id").
    public var appID: String? { appInfo.first { $0.tag == 1204 }?.text }
    /// The OS version of 1.2.840.113635.100.8.7, tag 1400 ("27.0").
    public var osVersion: String? { osInfo.first { $0.tag == 1400 }?.text }

    /// One `[tag] EXPLICIT value` of Apple's information extensions.
    public struct TaggedField: Sendable, Hashable, CustomStringConvertible {
        /// The context-specific tag number.
        public let tag: UInt32
        /// An INTEGER's value, when the field is one that fits Int64.
        public let integer: Int64?
        /// An OCTET STRING's bytes, when the field is one.
        public let bytes: [UInt8]?

        /// The OCTET STRING as UTF-8 text, when it is printable.
        public var text: String? {
            guard let bytes, let text = String(validating: bytes, as: UTF8.self),
                text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else { return nil }
            return text
        }

        /// `tag=value`.
        public var description: String {
            if let integer { return "\(tag)=\(integer)" }
            if let text { return "\(tag)=\"\(text)\"" }
            if let bytes { return "\(tag)=0x\(Base16.encode(bytes))" }
            return "\(tag)=(other)"
        }
    }

    /// Reads `certificate`'s App Attest extensions; the nonce is required.
    init(_ certificate: Certificate) throws(AppAttestError) {
        guard let nonceExtension = certificate.extension(AppleOIDs.appAttestNonce) else {
            throw AppAttestError(
                .nonceMismatch, "step 4: the credential certificate has no nonce extension \(AppleOIDs.appAttestNonce.dotted)")
        }
        nonce = try CredentialCertificateInfo.nonce(nonceExtension.rawValue)
        appInfo =
            (certificate.extension(AppleOIDs.appAttestAppInfo)).flatMap { try? CredentialCertificateInfo.taggedFields($0.rawValue) } ?? []
        osInfo =
            (certificate.extension(AppleOIDs.appAttestOSInfo)).flatMap { try? CredentialCertificateInfo.taggedFields($0.rawValue) } ?? []
        hasKeyAccessPolicy = certificate.extension(AppleOIDs.appAttestKeyAccessPolicy) != nil
    }

    /// The nonce extension's value, strict DER: `SEQUENCE { [1] EXPLICIT OCTET STRING (SIZE(32)) }`.
    static func nonce(_ value: [UInt8]) throws(AppAttestError) -> [UInt8] {
        let nonce: [UInt8]
        do throws(ASN1Error) {
            var reader = try ASN1SequenceReader(checking: DER.parse(value), identifier: .sequence)
            let inner = try ASN1.explicitInner(reader.next(.contextSpecific(1)), tag: .contextSpecific(1))
            nonce = try ASN1OctetString(node: inner).bytes
            try reader.finish()
        } catch {
            throw AppAttestError(
                .malformedCertificate, "step 4: the nonce extension is not SEQUENCE { [1] EXPLICIT OCTET STRING }: \(error)")
        }
        guard nonce.count == 32 else {
            throw AppAttestError(.malformedCertificate, "step 4: the nonce extension holds \(nonce.count) bytes, not 32")
        }
        return nonce
    }

    /// A SEQUENCE of `[tag] EXPLICIT (INTEGER | OCTET STRING | other)` (Apple's information
    /// extensions), strict DER.
    static func taggedFields(_ value: [UInt8]) throws(ASN1Error) -> [TaggedField] {
        let node = try DER.parse(value)
        try ASN1.expect(node, .sequence, constructed: true)
        var fields: [TaggedField] = []
        for child in node.children {
            guard child.identifier.tagClass == .contextSpecific else {
                throw child.error(.unexpectedTag, "expected a context-specific tag, found \(child.identifier)")
            }
            let inner = try ASN1.explicitInner(child, tag: child.identifier)
            switch inner.identifier {
            case .integer:
                fields.append(TaggedField(tag: child.identifier.tagNumber, integer: try ASN1Integer(node: inner).int64Value, bytes: nil))
            case .octetString:
                fields.append(TaggedField(tag: child.identifier.tagNumber, integer: nil, bytes: try ASN1OctetString(node: inner).bytes))
            default: fields.append(TaggedField(tag: child.identifier.tagNumber, integer: nil, bytes: nil))
            }
        }
        return fields
    }
}
