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
        /// policyQualifierId.
        public let id: ASN1ObjectIdentifier
        /// The qualifier's DER.
        public let valueDER: [UInt8]
        /// For id-qt-cps: the URI; for id-qt-unotice: the explicitText, if any.
        public let text: String?
    }

    /// policyIdentifier.
    public let identifier: ASN1ObjectIdentifier
    /// policyQualifiers, in order.
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

    /// Every check of the certificatePolicies decoder (a non-empty SEQUENCE OF PolicyInformation,
    /// each identifier once), in the same order and with the same errors, building as little as
    /// possible: identifiers are compared as their encodings (equal OIDs have equal DER).
    static func validatePolicies(_ node: ASN1Node) throws {
        try ASN1.expect(node, .sequence, constructed: true)
        var identifiers: [ArraySlice<UInt8>] = []
        for policy in node.children { identifiers.append(try validate(policy)) }
        guard !identifiers.isEmpty else { throw node.error(.unexpectedElementCount, "certificatePolicies must not be empty") }
        // Pairwise for the usual handful; a set beyond that, so the work stays linear.
        let repeated =
            identifiers.count <= 16
            ? identifiers.indices.contains { i in identifiers[..<i].contains(identifiers[i]) }
            : Set(identifiers).count != identifiers.count
        guard !repeated else {
            throw node.error(.unexpectedElementCount, "a policy identifier appears twice (RFC 5280 §4.2.1.4)")
        }
    }

    /// The DER content of id-qt-cps and id-qt-unotice, to recognise qualifiers without decoding their OIDs.
    private static let qualifierCPSContent = X509OIDs.qualifierCPS.contentBytes
    private static let qualifierUserNoticeContent = X509OIDs.qualifierUserNotice.contentBytes

    /// Every check of `init(node:)`, building nothing; returns the policy identifier's content octets.
    static func validate(_ node: ASN1Node) throws -> ArraySlice<UInt8> {
        try ASN1.sequence(node) { reader in
            let id = try reader.next(.objectIdentifier)
            try ASN1ObjectIdentifier.validate(id)
            if let list = reader.nextIfPresent(.sequence) {
                try ASN1.expect(list, .sequence, constructed: true)
                var count = 0
                for qualifierNode in list.children {
                    try ASN1.sequence(qualifierNode) { q in
                        let qid = try q.next(.objectIdentifier)
                        try ASN1ObjectIdentifier.validate(qid)
                        let value = try q.next()
                        if qid.contentBytes.elementsEqual(qualifierCPSContent) {
                            try ASN1IA5String.validate(value)
                        } else if qid.contentBytes.elementsEqual(qualifierUserNoticeContent) {
                            try PolicyInformation.validateExplicitText(value)
                        }
                    }
                    count += 1
                }
                guard count > 0 else { throw list.error(.unexpectedElementCount, "policyQualifiers must not be empty") }
            }
            return id.contentBytes
        }
    }

    /// Every check of `explicitText(_:)`, building nothing.
    static func validateExplicitText(_ node: ASN1Node) throws {
        try ASN1.sequence(node) { reader in
            _ = reader.nextIfPresent(.sequence)
            guard !reader.isAtEnd else { return }
            let text = try reader.next()
            switch text.identifier {
            case .ia5String: try ASN1IA5String.validate(text)
            case .visibleString: try ASN1VisibleString.validate(text)
            case .bmpString: try ASN1BMPString.validate(text)
            case .utf8String: try ASN1UTF8String.validate(text)
            default: throw text.error(.unexpectedTag, "DisplayText must be a string type, found \(text.identifier)")
            }
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
