import SigilASN1
import SigilBase

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

    init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        let id = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
        var qualifiers: [Qualifier] = []
        if let list = reader.nextIfPresent(.sequence) {
            try ASN1.expect(list, .sequence, constructed: true)
            for qualifierNode in list.children {
                var q = try ASN1SequenceReader(checking: qualifierNode, identifier: .sequence)
                let qid = try ASN1ObjectIdentifier(node: q.next(.objectIdentifier))
                let value = try q.next()
                var text: String?
                if qid == X509OIDs.qualifierCPS {
                    text = try ASN1IA5String.decodeText(value)
                } else if qid == X509OIDs.qualifierUserNotice {
                    text = try PolicyInformation.explicitText(value)
                }
                try q.finish()
                qualifiers.append(Qualifier(id: qid, valueDER: Array(value.encodedBytes), text: text))
            }
            guard !qualifiers.isEmpty else { throw list.error(.unexpectedElementCount, "policyQualifiers must not be empty") }
        }
        try reader.finish()
        (identifier, self.qualifiers) = (id, qualifiers)
    }

    /// Every check of the certificatePolicies decoder (a non-empty SEQUENCE OF PolicyInformation,
    /// each identifier once), in the same order and with the same errors, building as little as
    /// possible: identifiers are compared as their encodings (equal OIDs have equal DER).
    static func validatePolicies(_ node: ASN1Node) throws(ASN1Error) {
        try ASN1.expect(node, .sequence, constructed: true)
        var identifiers: [ArraySlice<UInt8>] = []
        for policy in node.children { identifiers.append(try validate(policy)) }
        guard !identifiers.isEmpty else { throw node.error(.unexpectedElementCount, "certificatePolicies must not be empty") }
        // Pairwise for the usual handful; a set of their hex beyond that, so the work stays linear
        // (hex: one kind of set, String, serves every set of texts in the verifier).
        let repeated =
            identifiers.count <= 16
            ? identifiers.indices.contains { i in identifiers[..<i].contains(identifiers[i]) }
            : Set(identifiers.map { Base16.encode($0) }).count != identifiers.count
        guard !repeated else {
            throw node.error(.unexpectedElementCount, "a policy identifier appears twice (RFC 5280 §4.2.1.4)")
        }
    }

    /// The DER content of id-qt-cps and id-qt-unotice, to recognise qualifiers without decoding their OIDs.
    private static let qualifierCPSContent = X509OIDs.qualifierCPS.contentBytes
    private static let qualifierUserNoticeContent = X509OIDs.qualifierUserNotice.contentBytes

    /// Every check of `init(node:)`, building nothing; returns the policy identifier's content octets.
    static func validate(_ node: ASN1Node) throws(ASN1Error) -> ArraySlice<UInt8> {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        let id = try reader.next(.objectIdentifier)
        try ASN1ObjectIdentifier.validate(id)
        if let list = reader.nextIfPresent(.sequence) {
            try ASN1.expect(list, .sequence, constructed: true)
            var count = 0
            for qualifierNode in list.children {
                var q = try ASN1SequenceReader(checking: qualifierNode, identifier: .sequence)
                let qid = try q.next(.objectIdentifier)
                try ASN1ObjectIdentifier.validate(qid)
                let value = try q.next()
                if qid.contentBytes.elementsEqual(qualifierCPSContent) {
                    try ASN1IA5String.validate(value)
                } else if qid.contentBytes.elementsEqual(qualifierUserNoticeContent) {
                    try PolicyInformation.validateExplicitText(value)
                }
                try q.finish()
                count += 1
            }
            guard count > 0 else { throw list.error(.unexpectedElementCount, "policyQualifiers must not be empty") }
        }
        try reader.finish()
        return id.contentBytes
    }

    /// Every check of `explicitText(_:)`, building nothing.
    static func validateExplicitText(_ node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        _ = reader.nextIfPresent(.sequence)
        if !reader.isAtEnd {
            let text = try reader.next()
            switch text.identifier {
            case .ia5String: try ASN1IA5String.validate(text)
            case .visibleString: try ASN1VisibleString.validate(text)
            case .bmpString: try ASN1BMPString.validate(text)
            case .utf8String: try ASN1UTF8String.validate(text)
            default: throw text.error(.unexpectedTag, "DisplayText must be a string type, found \(text.identifier)")
            }
        }
        try reader.finish()
    }

    /// UserNotice's explicitText (DisplayText: IA5String, VisibleString, BMPString or UTF8String).
    static func explicitText(_ node: ASN1Node) throws(ASN1Error) -> String? {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        _ = reader.nextIfPresent(.sequence)  // noticeRef, kept in valueDER
        var decoded: String?
        if !reader.isAtEnd {
            let text = try reader.next()
            switch text.identifier {
            case .ia5String: decoded = try ASN1IA5String.decodeText(text)
            case .visibleString: decoded = try ASN1VisibleString.decodeText(text)
            case .bmpString: decoded = try ASN1BMPString.decodeText(text)
            case .utf8String: decoded = try ASN1UTF8String.decodeText(text)
            default: throw text.error(.unexpectedTag, "DisplayText must be a string type, found \(text.identifier)")
            }
        }
        try reader.finish()
        return decoded
    }
}
