import SigilASN1
import SigilX509

/// ISO/IEC 18013-5 Annex B's profiles of the two certificates an issuer's signature rests on,
/// applied to each candidate chain [document signer, IACA root] on top of RFC 5280:
///
/// - the chain is exactly the document signer under an IACA root (B.1.2: the IACA's
///   pathLenConstraint is 0 and document signers are issued by it directly);
/// - the document signer's extendedKeyUsage holds one of the accepted purposes
///   (1.0.18013.5.1.2, mdlDS, by default) and its keyUsage is digitalSignature (B.1.4);
/// - the IACA root is a CA whose keyUsage holds keyCertSign (B.1.2; RFC 5280's basics check
///   basicConstraints);
/// - the document signer's countryName is present and equal to the IACA's, and so is its
///   stateOrProvinceName when the IACA names one (B.1.2, B.1.4).
///
/// Revocation is not checked here: IACAs publish CRLs (their crlDistributionPoints); a caller that
/// needs them adds SigilCRL's policy to its own verifier.
public struct MdocIssuerPolicy: CertificatePolicy {
    /// "ISO/IEC 18013-5 Annex B".
    public let name = "ISO/IEC 18013-5 Annex B"
    /// The extendedKeyUsage purposes a document signer may carry for the job: one is required.
    public let documentSignerPurposes: Set<ASN1ObjectIdentifier>

    /// id-mdl-kp-mdlDS (1.0.18013.5.1.2): the document signer of ISO/IEC 18013-5 mDLs (B.1.4).
    public static let mdlDocumentSigner: ASN1ObjectIdentifier = [1, 0, 18013, 5, 1, 2]

    /// A policy accepting document signers with one of `documentSignerPurposes` (mdlDS by
    /// default; a verifier of other document types names their purposes).
    public init(documentSignerPurposes: Set<ASN1ObjectIdentifier> = [MdocIssuerPolicy.mdlDocumentSigner]) {
        self.documentSignerPurposes = documentSignerPurposes
    }

    /// The rules Annex B sets that `chain` (document signer first, IACA root last) breaks.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        guard chain.count == 2 else {
            return [.chainLengthMismatch(policy: name, expected: 2, found: chain.count)]
        }
        var failures: [ValidationFailure] = []
        let (signer, iaca) = (chain[0], chain[1])
        let purposes = signer.extendedKeyUsage ?? []
        if documentSignerPurposes.isDisjoint(with: purposes) {
            let wanted = documentSignerPurposes.map { $0.dotted }.sorted().joined(separator: " or ")
            failures.append(
                .policy(
                    name: name,
                    reason: "the document signer's extendedKeyUsage (\(purposes.map { $0.dotted }.joined(separator: ", "))) "
                        + "does not hold \(wanted) (B.1.4)"))
        }
        if signer.keyUsage?.digitalSignature != true {
            failures.append(.policy(name: name, reason: "the document signer's keyUsage is not digitalSignature (B.1.4)"))
        }
        if iaca.keyUsage?.keyCertSign != true {
            failures.append(.policy(name: name, reason: "the IACA certificate's keyUsage does not hold keyCertSign (B.1.2)"))
        }
        let signerCountry = signer.subject.values(of: AttributeTypeAndValue.countryName)
        let iacaCountry = iaca.subject.values(of: AttributeTypeAndValue.countryName)
        if iacaCountry.count != 1 || signerCountry != iacaCountry {
            failures.append(
                .policy(
                    name: name,
                    reason: "the document signer's countryName (\(signerCountry.joined(separator: ","))) is not the IACA's "
                        + "(\(iacaCountry.joined(separator: ","))) (B.1.2, B.1.4)"))
        }
        let iacaState = iaca.subject.values(of: Self.stateOrProvinceName)
        if !iacaState.isEmpty, signer.subject.values(of: Self.stateOrProvinceName) != iacaState {
            failures.append(
                .policy(name: name, reason: "the IACA names a stateOrProvinceName and the document signer's is not the same (B.1.4)"))
        }
        return failures
    }

    /// id-at-stateOrProvinceName (2.5.4.8).
    static let stateOrProvinceName: ASN1ObjectIdentifier = [2, 5, 4, 8]
}
