import SigilASN1

/// PolicyInformation of certificatePolicies (RFC 5280 §4.2.1.4):
///
/// ```
/// PolicyInformation ::= SEQUENCE {
///     policyIdentifier   CertPolicyId,
///     policyQualifiers   SEQUENCE SIZE (1..MAX) OF PolicyQualifierInfo OPTIONAL }
/// PolicyQualifierInfo ::= SEQUENCE { policyQualifierId PolicyQualifierId, qualifier ANY }
/// UserNotice ::= SEQUENCE { noticeRef NoticeReference OPTIONAL, explicitText DisplayText OPTIONAL }
/// ```
/// Qualifiers are kept (OID and encoding); the CPS URI and a user notice's explicit text are decoded.
public struct PolicyInformation: Hashable, Sendable {
    /// A policy qualifier: its id and the qualifier's DER.
    public struct Qualifier: Hashable, Sendable {
        public let id: ASN1ObjectIdentifier
        public let valueDER: [UInt8]
        /// For id-qt-cps: the URI; for id-qt-unotice: the explicitText, if any.
        public let text: String?
    }

    public let identifier: ASN1ObjectIdentifier
    public let qualifiers: [Qualifier]

    init(node: ASN1Node) throws {
        (identifier, qualifiers) = try ASN1.sequence(node) { reader in
            let id = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
            var qualifiers: [Qualifier] = []
            if let list = reader.nextIfPresent(.sequence) {
                qualifiers = try ASN1.sequenceOf(list) { qualifierNode in
                    try ASN1.sequence(qualifierNode) { q in
                        let qid = try ASN1ObjectIdentifier(node: q.next(.objectIdentifier))
                        let value = try q.next()
                        var text: String?
                        if qid == X509OIDs.qualifierCPS {
                            text = try ASN1IA5String.decodeText(value)
                        } else if qid == X509OIDs.qualifierUserNotice {
                            text = try PolicyInformation.explicitText(value)
                        }
                        return Qualifier(id: qid, valueDER: Array(value.encodedBytes), text: text)
                    }
                }
                guard !qualifiers.isEmpty else { throw list.error(.unexpectedElementCount, "policyQualifiers must not be empty") }
            }
            return (id, qualifiers)
        }
    }

    /// UserNotice's explicitText (DisplayText: IA5String, VisibleString, BMPString or UTF8String).
    static func explicitText(_ node: ASN1Node) throws -> String? {
        try ASN1.sequence(node) { reader in
            _ = reader.nextIfPresent(.sequence)  // noticeRef, kept in valueDER
            guard let text = reader.isAtEnd ? nil : try reader.next() else { return nil }
            switch text.identifier {
            case .ia5String: return try ASN1IA5String.decodeText(text)
            case .visibleString: return try ASN1VisibleString.decodeText(text)
            case .bmpString: return try ASN1BMPString.decodeText(text)
            case .utf8String: return try ASN1UTF8String.decodeText(text)
            default: throw text.error(.unexpectedTag, "DisplayText must be a string type, found \(text.identifier)")
            }
        }
    }
}
