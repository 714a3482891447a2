import Foundation
import SigilASN1
import SigilTestSupport
import XCTest

@testable import SigilX509

// NIST PKITS policy identifiers (PKITS §3: NIST-test-policy-1 … -6).
private let p1: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 2, 1, 48, 1]
private let p2: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 2, 1, 48, 2]
private let p3: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 2, 1, 48, 3]
private let p6: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 2, 1, 48, 6]

/// One PKITS test (or, for §4.8–§4.12 tests run more than once, one of its numbered runs): the
/// certificates from the one issued by the trust anchor down to the one above the end entity,
/// the end entity, the outcome PKITS specifies, and the initial settings it gives (§3 defaults:
/// any-policy, nothing required or inhibited).
struct PKITSCase {
    enum Outcome { case valid, invalid }

    let id: String
    let path: [String]
    let leaf: String
    let outcome: Outcome
    let settings: PolicySettings
    /// The outcome depends on CRL processing (PKITS §4.4, §4.5, §4.14, §4.15; §4.7.4–§4.7.5, whose
    /// CA cannot sign its CRL).
    let revocation: Bool
    /// The user-constrained-policy-set PKITS gives for a valid run; nil where the table states none
    /// (outside §4.8–§4.12 every PKITS certificate asserts NIST-test-policy-1 and the runner expects {policy-1}).
    let policies: Set<ASN1ObjectIdentifier>?

    init(
        _ id: String, _ path: [String], _ leaf: String, _ outcome: Outcome, explicit: Bool = false,
        initial: Set<ASN1ObjectIdentifier> = [X509OIDs.anyPolicy], mappingInhibit: Bool = false, anyInhibit: Bool = false,
        revocation: Bool = false, policies: Set<ASN1ObjectIdentifier>? = nil
    ) {
        self.id = id
        self.path = path
        self.leaf = leaf
        self.outcome = outcome
        self.settings = PolicySettings(
            initialPolicySet: initial, requireExplicitPolicy: explicit,
            inhibitPolicyMapping: mappingInhibit, inhibitAnyPolicy: anyInhibit)
        self.revocation = revocation
        self.policies = policies
    }

    var section: String { id.split(separator: ".").prefix(2).joined(separator: ".") }
}

/// Every PKITS test of sections 4.1–4.16 but the DSA ones (4.1.4–4.1.6: Sigil verifies no DSA
/// signatures, so 4.1.6's refusal would be for the wrong reason), with the settings the PKITS
/// specification gives each (§4.8.1, 4.8.2, 4.8.3, 4.8.6, 4.8.10, 4.8.11, 4.8.13, 4.8.14, 4.8.18,
/// 4.10.1–4.10.3, 4.10.5, 4.10.6, 4.10.12 and 4.12.3 are run more than once with different
/// settings; their runs are numbered .1, .2, …).
let pkitsCases: [PKITSCase] = [
    PKITSCase("4.1.1", ["GoodCACert"], "ValidCertificatePathTest1EE", .valid),
    PKITSCase("4.1.2", ["BadSignedCACert"], "InvalidCASignatureTest2EE", .invalid),
    PKITSCase("4.1.3", ["GoodCACert"], "InvalidEESignatureTest3EE", .invalid),
    PKITSCase("4.2.1", ["BadnotBeforeDateCACert"], "InvalidCAnotBeforeDateTest1EE", .invalid),
    PKITSCase("4.2.2", ["GoodCACert"], "InvalidEEnotBeforeDateTest2EE", .invalid),
    PKITSCase("4.2.3", ["GoodCACert"], "Validpre2000UTCnotBeforeDateTest3EE", .valid),
    PKITSCase("4.2.4", ["GoodCACert"], "ValidGeneralizedTimenotBeforeDateTest4EE", .valid),
    PKITSCase("4.2.5", ["BadnotAfterDateCACert"], "InvalidCAnotAfterDateTest5EE", .invalid),
    PKITSCase("4.2.6", ["GoodCACert"], "InvalidEEnotAfterDateTest6EE", .invalid),
    PKITSCase("4.2.7", ["GoodCACert"], "Invalidpre2000UTCEEnotAfterDateTest7EE", .invalid),
    PKITSCase("4.2.8", ["GoodCACert"], "ValidGeneralizedTimenotAfterDateTest8EE", .valid),
    PKITSCase("4.3.1", ["GoodCACert"], "InvalidNameChainingTest1EE", .invalid),
    PKITSCase("4.3.2", ["NameOrderingCACert"], "InvalidNameChainingOrderTest2EE", .invalid),
    PKITSCase("4.3.3", ["GoodCACert"], "ValidNameChainingWhitespaceTest3EE", .valid),
    PKITSCase("4.3.4", ["GoodCACert"], "ValidNameChainingWhitespaceTest4EE", .valid),
    PKITSCase("4.3.5", ["GoodCACert"], "ValidNameChainingCapitalizationTest5EE", .valid),
    PKITSCase("4.3.6", ["UIDCACert"], "ValidNameUIDsTest6EE", .valid),
    PKITSCase("4.3.7", ["RFC3280MandatoryAttributeTypesCACert"], "ValidRFC3280MandatoryAttributeTypesTest7EE", .valid),
    PKITSCase("4.3.8", ["RFC3280OptionalAttributeTypesCACert"], "ValidRFC3280OptionalAttributeTypesTest8EE", .valid),
    PKITSCase("4.3.9", ["UTF8StringEncodedNamesCACert"], "ValidUTF8StringEncodedNamesTest9EE", .valid),
    PKITSCase("4.3.10", ["RolloverfromPrintableStringtoUTF8StringCACert"], "ValidRolloverfromPrintableStringtoUTF8StringTest10EE", .valid),
    PKITSCase("4.3.11", ["UTF8StringCaseInsensitiveMatchCACert"], "ValidUTF8StringCaseInsensitiveMatchTest11EE", .valid),
    PKITSCase("4.4.1", ["NoCRLCACert"], "InvalidMissingCRLTest1EE", .invalid, revocation: true),
    PKITSCase("4.4.2", ["GoodCACert", "RevokedsubCACert"], "InvalidRevokedCATest2EE", .invalid, revocation: true),
    PKITSCase("4.4.3", ["GoodCACert"], "InvalidRevokedEETest3EE", .invalid, revocation: true),
    PKITSCase("4.4.4", ["BadCRLSignatureCACert"], "InvalidBadCRLSignatureTest4EE", .invalid, revocation: true),
    PKITSCase("4.4.5", ["BadCRLIssuerNameCACert"], "InvalidBadCRLIssuerNameTest5EE", .invalid, revocation: true),
    PKITSCase("4.4.6", ["WrongCRLCACert"], "InvalidWrongCRLTest6EE", .invalid, revocation: true),
    PKITSCase("4.4.7", ["TwoCRLsCACert"], "ValidTwoCRLsTest7EE", .valid, revocation: true),
    PKITSCase("4.4.8", ["UnknownCRLEntryExtensionCACert"], "InvalidUnknownCRLEntryExtensionTest8EE", .invalid, revocation: true),
    PKITSCase("4.4.9", ["UnknownCRLExtensionCACert"], "InvalidUnknownCRLExtensionTest9EE", .invalid, revocation: true),
    PKITSCase("4.4.10", ["UnknownCRLExtensionCACert"], "InvalidUnknownCRLExtensionTest10EE", .invalid, revocation: true),
    PKITSCase("4.4.11", ["OldCRLnextUpdateCACert"], "InvalidOldCRLnextUpdateTest11EE", .invalid, revocation: true),
    PKITSCase("4.4.12", ["pre2000CRLnextUpdateCACert"], "Invalidpre2000CRLnextUpdateTest12EE", .invalid, revocation: true),
    PKITSCase("4.4.13", ["GeneralizedTimeCRLnextUpdateCACert"], "ValidGeneralizedTimeCRLnextUpdateTest13EE", .valid, revocation: true),
    PKITSCase("4.4.14", ["NegativeSerialNumberCACert"], "ValidNegativeSerialNumberTest14EE", .valid, revocation: true),
    PKITSCase("4.4.15", ["NegativeSerialNumberCACert"], "InvalidNegativeSerialNumberTest15EE", .invalid, revocation: true),
    PKITSCase("4.4.16", ["LongSerialNumberCACert"], "ValidLongSerialNumberTest16EE", .valid, revocation: true),
    PKITSCase("4.4.17", ["LongSerialNumberCACert"], "ValidLongSerialNumberTest17EE", .valid, revocation: true),
    PKITSCase("4.4.18", ["LongSerialNumberCACert"], "InvalidLongSerialNumberTest18EE", .invalid, revocation: true),
    PKITSCase(
        "4.4.19", ["SeparateCertificateandCRLKeysCertificateSigningCACert"], "ValidSeparateCertificateandCRLKeysTest19EE", .valid,
        revocation: true),
    PKITSCase(
        "4.4.20", ["SeparateCertificateandCRLKeysCertificateSigningCACert"], "InvalidSeparateCertificateandCRLKeysTest20EE", .invalid,
        revocation: true),
    PKITSCase(
        "4.4.21", ["SeparateCertificateandCRLKeysCA2CertificateSigningCACert"], "InvalidSeparateCertificateandCRLKeysTest21EE", .invalid,
        revocation: true),
    PKITSCase(
        "4.5.1", ["BasicSelfIssuedNewKeyCACert", "BasicSelfIssuedNewKeyOldWithNewCACert"], "ValidBasicSelfIssuedOldWithNewTest1EE", .valid,
        revocation: true),
    PKITSCase(
        "4.5.2", ["BasicSelfIssuedNewKeyCACert", "BasicSelfIssuedNewKeyOldWithNewCACert"], "InvalidBasicSelfIssuedOldWithNewTest2EE",
        .invalid, revocation: true),
    PKITSCase(
        "4.5.3", ["BasicSelfIssuedOldKeyCACert", "BasicSelfIssuedOldKeyNewWithOldCACert"], "ValidBasicSelfIssuedNewWithOldTest3EE", .valid,
        revocation: true),
    PKITSCase("4.5.4", ["BasicSelfIssuedOldKeyCACert"], "ValidBasicSelfIssuedNewWithOldTest4EE", .valid, revocation: true),
    PKITSCase("4.5.5", ["BasicSelfIssuedOldKeyCACert"], "InvalidBasicSelfIssuedNewWithOldTest5EE", .invalid, revocation: true),
    PKITSCase("4.5.6", ["BasicSelfIssuedCRLSigningKeyCACert"], "ValidBasicSelfIssuedCRLSigningKeyTest6EE", .valid, revocation: true),
    PKITSCase("4.5.7", ["BasicSelfIssuedCRLSigningKeyCACert"], "InvalidBasicSelfIssuedCRLSigningKeyTest7EE", .invalid, revocation: true),
    PKITSCase(
        "4.5.8", ["BasicSelfIssuedCRLSigningKeyCACert", "BasicSelfIssuedCRLSigningKeyCRLCert"],
        "InvalidBasicSelfIssuedCRLSigningKeyTest8EE", .invalid, revocation: true),
    PKITSCase("4.6.1", ["MissingbasicConstraintsCACert"], "InvalidMissingbasicConstraintsTest1EE", .invalid),
    PKITSCase("4.6.2", ["basicConstraintsCriticalcAFalseCACert"], "InvalidcAFalseTest2EE", .invalid),
    PKITSCase("4.6.3", ["basicConstraintsNotCriticalcAFalseCACert"], "InvalidcAFalseTest3EE", .invalid),
    PKITSCase("4.6.4", ["basicConstraintsNotCriticalCACert"], "ValidbasicConstraintsNotCriticalTest4EE", .valid),
    PKITSCase("4.6.5", ["pathLenConstraint0CACert", "pathLenConstraint0subCACert"], "InvalidpathLenConstraintTest5EE", .invalid),
    PKITSCase("4.6.6", ["pathLenConstraint0CACert", "pathLenConstraint0subCACert"], "InvalidpathLenConstraintTest6EE", .invalid),
    PKITSCase("4.6.7", ["pathLenConstraint0CACert"], "ValidpathLenConstraintTest7EE", .valid),
    PKITSCase("4.6.8", ["pathLenConstraint0CACert"], "ValidpathLenConstraintTest8EE", .valid),
    PKITSCase(
        "4.6.9", ["pathLenConstraint6CACert", "pathLenConstraint6subCA0Cert", "pathLenConstraint6subsubCA00Cert"],
        "InvalidpathLenConstraintTest9EE", .invalid),
    PKITSCase(
        "4.6.10", ["pathLenConstraint6CACert", "pathLenConstraint6subCA0Cert", "pathLenConstraint6subsubCA00Cert"],
        "InvalidpathLenConstraintTest10EE", .invalid),
    PKITSCase(
        "4.6.11",
        [
            "pathLenConstraint6CACert", "pathLenConstraint6subCA1Cert", "pathLenConstraint6subsubCA11Cert",
            "pathLenConstraint6subsubsubCA11XCert",
        ], "InvalidpathLenConstraintTest11EE", .invalid),
    PKITSCase(
        "4.6.12",
        [
            "pathLenConstraint6CACert", "pathLenConstraint6subCA1Cert", "pathLenConstraint6subsubCA11Cert",
            "pathLenConstraint6subsubsubCA11XCert",
        ], "InvalidpathLenConstraintTest12EE", .invalid),
    PKITSCase(
        "4.6.13",
        [
            "pathLenConstraint6CACert", "pathLenConstraint6subCA4Cert", "pathLenConstraint6subsubCA41Cert",
            "pathLenConstraint6subsubsubCA41XCert",
        ], "ValidpathLenConstraintTest13EE", .valid),
    PKITSCase(
        "4.6.14",
        [
            "pathLenConstraint6CACert", "pathLenConstraint6subCA4Cert", "pathLenConstraint6subsubCA41Cert",
            "pathLenConstraint6subsubsubCA41XCert",
        ], "ValidpathLenConstraintTest14EE", .valid),
    PKITSCase(
        "4.6.15", ["pathLenConstraint0CACert", "pathLenConstraint0SelfIssuedCACert"], "ValidSelfIssuedpathLenConstraintTest15EE", .valid),
    PKITSCase(
        "4.6.16", ["pathLenConstraint0CACert", "pathLenConstraint0SelfIssuedCACert", "pathLenConstraint0subCA2Cert"],
        "InvalidSelfIssuedpathLenConstraintTest16EE", .invalid),
    PKITSCase(
        "4.6.17",
        [
            "pathLenConstraint1CACert", "pathLenConstraint1SelfIssuedCACert", "pathLenConstraint1subCACert",
            "pathLenConstraint1SelfIssuedsubCACert",
        ], "ValidSelfIssuedpathLenConstraintTest17EE", .valid),
    PKITSCase("4.7.1", ["keyUsageCriticalkeyCertSignFalseCACert"], "InvalidkeyUsageCriticalkeyCertSignFalseTest1EE", .invalid),
    PKITSCase("4.7.2", ["keyUsageNotCriticalkeyCertSignFalseCACert"], "InvalidkeyUsageNotCriticalkeyCertSignFalseTest2EE", .invalid),
    PKITSCase("4.7.3", ["keyUsageNotCriticalCACert"], "ValidkeyUsageNotCriticalTest3EE", .valid),
    PKITSCase("4.7.4", ["keyUsageCriticalcRLSignFalseCACert"], "InvalidkeyUsageCriticalcRLSignFalseTest4EE", .invalid, revocation: true),
    PKITSCase(
        "4.7.5", ["keyUsageNotCriticalcRLSignFalseCACert"], "InvalidkeyUsageNotCriticalcRLSignFalseTest5EE", .invalid, revocation: true),
    PKITSCase("4.8.1.1", ["GoodCACert"], "ValidCertificatePathTest1EE", .valid, explicit: true, policies: [p1]),
    PKITSCase("4.8.1.2", ["GoodCACert"], "ValidCertificatePathTest1EE", .valid, explicit: true, initial: [p1], policies: [p1]),
    PKITSCase("4.8.1.3", ["GoodCACert"], "ValidCertificatePathTest1EE", .invalid, explicit: true, initial: [p2]),
    PKITSCase("4.8.1.4", ["GoodCACert"], "ValidCertificatePathTest1EE", .valid, explicit: true, initial: [p1, p2], policies: [p1]),
    PKITSCase("4.8.2.1", ["NoPoliciesCACert"], "AllCertificatesNoPoliciesTest2EE", .valid, policies: []),
    PKITSCase("4.8.2.2", ["NoPoliciesCACert"], "AllCertificatesNoPoliciesTest2EE", .invalid, explicit: true),
    PKITSCase("4.8.3.1", ["GoodCACert", "PoliciesP2subCACert"], "DifferentPoliciesTest3EE", .valid, policies: []),
    PKITSCase("4.8.3.2", ["GoodCACert", "PoliciesP2subCACert"], "DifferentPoliciesTest3EE", .invalid, explicit: true),
    PKITSCase("4.8.3.3", ["GoodCACert", "PoliciesP2subCACert"], "DifferentPoliciesTest3EE", .invalid, explicit: true, initial: [p1, p2]),
    PKITSCase("4.8.4", ["GoodCACert", "GoodsubCACert"], "DifferentPoliciesTest4EE", .invalid),
    PKITSCase("4.8.5", ["GoodCACert", "PoliciesP2subCA2Cert"], "DifferentPoliciesTest5EE", .invalid),
    PKITSCase(
        "4.8.6.1", ["PoliciesP1234CACert", "PoliciesP1234subCAP123Cert", "PoliciesP1234subsubCAP123P12Cert"], "OverlappingPoliciesTest6EE",
        .valid, policies: [p1]),
    PKITSCase(
        "4.8.6.2", ["PoliciesP1234CACert", "PoliciesP1234subCAP123Cert", "PoliciesP1234subsubCAP123P12Cert"], "OverlappingPoliciesTest6EE",
        .valid, initial: [p1], policies: [p1]),
    PKITSCase(
        "4.8.6.3", ["PoliciesP1234CACert", "PoliciesP1234subCAP123Cert", "PoliciesP1234subsubCAP123P12Cert"], "OverlappingPoliciesTest6EE",
        .invalid, initial: [p2]),
    PKITSCase(
        "4.8.7", ["PoliciesP123CACert", "PoliciesP123subCAP12Cert", "PoliciesP123subsubCAP12P1Cert"], "DifferentPoliciesTest7EE", .invalid),
    PKITSCase(
        "4.8.8", ["PoliciesP12CACert", "PoliciesP12subCAP1Cert", "PoliciesP12subsubCAP1P2Cert"], "DifferentPoliciesTest8EE", .invalid),
    PKITSCase(
        "4.8.9", ["PoliciesP123CACert", "PoliciesP123subCAP12Cert", "PoliciesP123subsubCAP12P2Cert", "PoliciesP123subsubsubCAP12P2P1Cert"],
        "DifferentPoliciesTest9EE", .invalid),
    PKITSCase("4.8.10.1", ["PoliciesP12CACert"], "AllCertificatesSamePoliciesTest10EE", .valid, policies: [p1, p2]),
    PKITSCase("4.8.10.2", ["PoliciesP12CACert"], "AllCertificatesSamePoliciesTest10EE", .valid, initial: [p1], policies: [p1]),
    PKITSCase("4.8.10.3", ["PoliciesP12CACert"], "AllCertificatesSamePoliciesTest10EE", .valid, initial: [p2], policies: [p2]),
    PKITSCase("4.8.11.1", ["anyPolicyCACert"], "AllCertificatesanyPolicyTest11EE", .valid, policies: [X509OIDs.anyPolicy]),
    PKITSCase("4.8.11.2", ["anyPolicyCACert"], "AllCertificatesanyPolicyTest11EE", .valid, initial: [p1], policies: [p1]),
    PKITSCase("4.8.12", ["PoliciesP3CACert"], "DifferentPoliciesTest12EE", .invalid),
    PKITSCase("4.8.13.1", ["PoliciesP123CACert"], "AllCertificatesSamePoliciesTest13EE", .valid, initial: [p1], policies: [p1]),
    PKITSCase("4.8.13.2", ["PoliciesP123CACert"], "AllCertificatesSamePoliciesTest13EE", .valid, initial: [p2], policies: [p2]),
    PKITSCase("4.8.13.3", ["PoliciesP123CACert"], "AllCertificatesSamePoliciesTest13EE", .valid, initial: [p3], policies: [p3]),
    PKITSCase("4.8.14.1", ["anyPolicyCACert"], "AnyPolicyTest14EE", .valid, initial: [p1], policies: [p1]),
    PKITSCase("4.8.14.2", ["anyPolicyCACert"], "AnyPolicyTest14EE", .invalid, initial: [p2]),
    PKITSCase("4.8.15", [], "UserNoticeQualifierTest15EE", .valid, policies: [p1]),
    PKITSCase("4.8.16", ["GoodCACert"], "UserNoticeQualifierTest16EE", .valid, policies: [p1]),
    PKITSCase("4.8.17", ["GoodCACert"], "UserNoticeQualifierTest17EE", .valid, policies: [p1]),
    PKITSCase("4.8.18.1", ["PoliciesP12CACert"], "UserNoticeQualifierTest18EE", .valid, initial: [p1], policies: [p1]),
    PKITSCase("4.8.18.2", ["PoliciesP12CACert"], "UserNoticeQualifierTest18EE", .valid, initial: [p2], policies: [p2]),
    PKITSCase("4.8.19", [], "UserNoticeQualifierTest19EE", .valid, policies: [p1]),
    PKITSCase("4.8.20", ["GoodCACert"], "CPSPointerQualifierTest20EE", .valid, policies: [p1]),
    PKITSCase(
        "4.9.1",
        [
            "requireExplicitPolicy10CACert", "requireExplicitPolicy10subCACert", "requireExplicitPolicy10subsubCACert",
            "requireExplicitPolicy10subsubsubCACert",
        ], "ValidrequireExplicitPolicyTest1EE", .valid, policies: []),
    PKITSCase(
        "4.9.2",
        [
            "requireExplicitPolicy5CACert", "requireExplicitPolicy5subCACert", "requireExplicitPolicy5subsubCACert",
            "requireExplicitPolicy5subsubsubCACert",
        ], "ValidrequireExplicitPolicyTest2EE", .valid, policies: []),
    PKITSCase(
        "4.9.3",
        [
            "requireExplicitPolicy4CACert", "requireExplicitPolicy4subCACert", "requireExplicitPolicy4subsubCACert",
            "requireExplicitPolicy4subsubsubCACert",
        ], "InvalidrequireExplicitPolicyTest3EE", .invalid),
    PKITSCase(
        "4.9.4",
        [
            "requireExplicitPolicy0CACert", "requireExplicitPolicy0subCACert", "requireExplicitPolicy0subsubCACert",
            "requireExplicitPolicy0subsubsubCACert",
        ], "ValidrequireExplicitPolicyTest4EE", .valid, policies: [p1]),
    PKITSCase(
        "4.9.5",
        [
            "requireExplicitPolicy7CACert", "requireExplicitPolicy7subCARE2Cert", "requireExplicitPolicy7subsubCARE2RE4Cert",
            "requireExplicitPolicy7subsubsubCARE2RE4Cert",
        ], "InvalidrequireExplicitPolicyTest5EE", .invalid),
    PKITSCase(
        "4.9.6", ["requireExplicitPolicy2CACert", "requireExplicitPolicy2SelfIssuedCACert"], "ValidSelfIssuedrequireExplicitPolicyTest6EE",
        .valid, policies: []),
    PKITSCase(
        "4.9.7", ["requireExplicitPolicy2CACert", "requireExplicitPolicy2SelfIssuedCACert", "requireExplicitPolicy2subCACert"],
        "InvalidSelfIssuedrequireExplicitPolicyTest7EE", .invalid),
    PKITSCase(
        "4.9.8",
        [
            "requireExplicitPolicy2CACert", "requireExplicitPolicy2SelfIssuedCACert", "requireExplicitPolicy2subCACert",
            "requireExplicitPolicy2SelfIssuedsubCACert",
        ], "InvalidSelfIssuedrequireExplicitPolicyTest8EE", .invalid),
    PKITSCase("4.10.1.1", ["Mapping1to2CACert"], "ValidPolicyMappingTest1EE", .valid, initial: [p1], policies: [p1]),
    PKITSCase("4.10.1.2", ["Mapping1to2CACert"], "ValidPolicyMappingTest1EE", .invalid, initial: [p2]),
    PKITSCase("4.10.1.3", ["Mapping1to2CACert"], "ValidPolicyMappingTest1EE", .invalid, mappingInhibit: true),
    PKITSCase("4.10.2.1", ["Mapping1to2CACert"], "InvalidPolicyMappingTest2EE", .invalid),
    PKITSCase("4.10.2.2", ["Mapping1to2CACert"], "InvalidPolicyMappingTest2EE", .invalid, mappingInhibit: true),
    PKITSCase(
        "4.10.3.1", ["P12Mapping1to3CACert", "P12Mapping1to3subCACert", "P12Mapping1to3subsubCACert"], "ValidPolicyMappingTest3EE",
        .invalid, initial: [p1]),
    PKITSCase(
        "4.10.3.2", ["P12Mapping1to3CACert", "P12Mapping1to3subCACert", "P12Mapping1to3subsubCACert"], "ValidPolicyMappingTest3EE", .valid,
        initial: [p2]),
    PKITSCase(
        "4.10.4", ["P12Mapping1to3CACert", "P12Mapping1to3subCACert", "P12Mapping1to3subsubCACert"], "InvalidPolicyMappingTest4EE", .invalid
    ),
    PKITSCase("4.10.5.1", ["P1Mapping1to234CACert", "P1Mapping1to234subCACert"], "ValidPolicyMappingTest5EE", .valid, initial: [p1]),
    PKITSCase("4.10.5.2", ["P1Mapping1to234CACert", "P1Mapping1to234subCACert"], "ValidPolicyMappingTest5EE", .invalid, initial: [p6]),
    PKITSCase(
        "4.10.6.1", ["P1Mapping1to234CACert", "P1Mapping1to234subCACert"], "ValidPolicyMappingTest6EE", .valid, initial: [p1],
        policies: [p1]),
    PKITSCase("4.10.6.2", ["P1Mapping1to234CACert", "P1Mapping1to234subCACert"], "ValidPolicyMappingTest6EE", .invalid, initial: [p6]),
    PKITSCase("4.10.7", ["MappingFromanyPolicyCACert"], "InvalidMappingFromanyPolicyTest7EE", .invalid),
    PKITSCase("4.10.8", ["MappingToanyPolicyCACert"], "InvalidMappingToanyPolicyTest8EE", .invalid),
    PKITSCase("4.10.9", ["PanyPolicyMapping1to2CACert"], "ValidPolicyMappingTest9EE", .valid, policies: [p1]),
    PKITSCase("4.10.10", ["GoodCACert", "GoodsubCAPanyPolicyMapping1to2CACert"], "InvalidPolicyMappingTest10EE", .invalid),
    PKITSCase("4.10.11", ["GoodCACert", "GoodsubCAPanyPolicyMapping1to2CACert"], "ValidPolicyMappingTest11EE", .valid, policies: [p1]),
    PKITSCase("4.10.12.1", ["P12Mapping1to3CACert"], "ValidPolicyMappingTest12EE", .valid, initial: [p1]),
    PKITSCase("4.10.12.2", ["P12Mapping1to3CACert"], "ValidPolicyMappingTest12EE", .valid, initial: [p2]),
    PKITSCase("4.10.13", ["P1anyPolicyMapping1to2CACert"], "ValidPolicyMappingTest13EE", .valid),
    PKITSCase("4.10.14", ["P1anyPolicyMapping1to2CACert"], "ValidPolicyMappingTest14EE", .valid),
    PKITSCase("4.11.1", ["inhibitPolicyMapping0CACert", "inhibitPolicyMapping0subCACert"], "InvalidinhibitPolicyMappingTest1EE", .invalid),
    PKITSCase(
        "4.11.2", ["inhibitPolicyMapping1P12CACert", "inhibitPolicyMapping1P12subCACert"], "ValidinhibitPolicyMappingTest2EE", .valid),
    PKITSCase(
        "4.11.3", ["inhibitPolicyMapping1P12CACert", "inhibitPolicyMapping1P12subCACert", "inhibitPolicyMapping1P12subsubCACert"],
        "InvalidinhibitPolicyMappingTest3EE", .invalid),
    PKITSCase(
        "4.11.4", ["inhibitPolicyMapping1P12CACert", "inhibitPolicyMapping1P12subCACert", "inhibitPolicyMapping1P12subsubCACert"],
        "ValidinhibitPolicyMappingTest4EE", .valid),
    PKITSCase(
        "4.11.5",
        [
            "inhibitPolicyMapping5CACert", "inhibitPolicyMapping5subCACert", "inhibitPolicyMapping5subsubCACert",
            "inhibitPolicyMapping5subsubsubCACert",
        ], "InvalidinhibitPolicyMappingTest5EE", .invalid),
    PKITSCase(
        "4.11.6", ["inhibitPolicyMapping1P12CACert", "inhibitPolicyMapping1P12subCAIPM5Cert", "inhibitPolicyMapping1P12subsubCAIPM5Cert"],
        "InvalidinhibitPolicyMappingTest6EE", .invalid),
    PKITSCase(
        "4.11.7", ["inhibitPolicyMapping1P1CACert", "inhibitPolicyMapping1P1SelfIssuedCACert", "inhibitPolicyMapping1P1subCACert"],
        "ValidSelfIssuedinhibitPolicyMappingTest7EE", .valid),
    PKITSCase(
        "4.11.8",
        [
            "inhibitPolicyMapping1P1CACert", "inhibitPolicyMapping1P1SelfIssuedCACert", "inhibitPolicyMapping1P1subCACert",
            "inhibitPolicyMapping1P1subsubCACert",
        ], "InvalidSelfIssuedinhibitPolicyMappingTest8EE", .invalid),
    PKITSCase(
        "4.11.9",
        [
            "inhibitPolicyMapping1P1CACert", "inhibitPolicyMapping1P1SelfIssuedCACert", "inhibitPolicyMapping1P1subCACert",
            "inhibitPolicyMapping1P1subsubCACert",
        ], "InvalidSelfIssuedinhibitPolicyMappingTest9EE", .invalid),
    PKITSCase(
        "4.11.10",
        [
            "inhibitPolicyMapping1P1CACert", "inhibitPolicyMapping1P1SelfIssuedCACert", "inhibitPolicyMapping1P1subCACert",
            "inhibitPolicyMapping1P1SelfIssuedsubCACert",
        ], "InvalidSelfIssuedinhibitPolicyMappingTest10EE", .invalid),
    PKITSCase(
        "4.11.11",
        [
            "inhibitPolicyMapping1P1CACert", "inhibitPolicyMapping1P1SelfIssuedCACert", "inhibitPolicyMapping1P1subCACert",
            "inhibitPolicyMapping1P1SelfIssuedsubCACert",
        ], "InvalidSelfIssuedinhibitPolicyMappingTest11EE", .invalid),
    PKITSCase("4.12.1", ["inhibitAnyPolicy0CACert"], "InvalidinhibitAnyPolicyTest1EE", .invalid),
    PKITSCase("4.12.2", ["inhibitAnyPolicy0CACert"], "ValidinhibitAnyPolicyTest2EE", .valid),
    PKITSCase("4.12.3.1", ["inhibitAnyPolicy1CACert", "inhibitAnyPolicy1subCA1Cert"], "inhibitAnyPolicyTest3EE", .valid),
    PKITSCase(
        "4.12.3.2", ["inhibitAnyPolicy1CACert", "inhibitAnyPolicy1subCA1Cert"], "inhibitAnyPolicyTest3EE", .invalid, anyInhibit: true),
    PKITSCase("4.12.4", ["inhibitAnyPolicy1CACert", "inhibitAnyPolicy1subCA1Cert"], "InvalidinhibitAnyPolicyTest4EE", .invalid),
    PKITSCase(
        "4.12.5", ["inhibitAnyPolicy5CACert", "inhibitAnyPolicy5subCACert", "inhibitAnyPolicy5subsubCACert"],
        "InvalidinhibitAnyPolicyTest5EE", .invalid),
    PKITSCase("4.12.6", ["inhibitAnyPolicy1CACert", "inhibitAnyPolicy1subCAIAP5Cert"], "InvalidinhibitAnyPolicyTest6EE", .invalid),
    PKITSCase(
        "4.12.7", ["inhibitAnyPolicy1CACert", "inhibitAnyPolicy1SelfIssuedCACert", "inhibitAnyPolicy1subCA2Cert"],
        "ValidSelfIssuedinhibitAnyPolicyTest7EE", .valid),
    PKITSCase(
        "4.12.8",
        ["inhibitAnyPolicy1CACert", "inhibitAnyPolicy1SelfIssuedCACert", "inhibitAnyPolicy1subCA2Cert", "inhibitAnyPolicy1subsubCA2Cert"],
        "InvalidSelfIssuedinhibitAnyPolicyTest8EE", .invalid),
    PKITSCase(
        "4.12.9",
        [
            "inhibitAnyPolicy1CACert", "inhibitAnyPolicy1SelfIssuedCACert", "inhibitAnyPolicy1subCA2Cert",
            "inhibitAnyPolicy1SelfIssuedsubCA2Cert",
        ], "ValidSelfIssuedinhibitAnyPolicyTest9EE", .valid),
    PKITSCase(
        "4.12.10", ["inhibitAnyPolicy1CACert", "inhibitAnyPolicy1SelfIssuedCACert", "inhibitAnyPolicy1subCA2Cert"],
        "InvalidSelfIssuedinhibitAnyPolicyTest10EE", .invalid),
    PKITSCase("4.13.1", ["nameConstraintsDN1CACert"], "ValidDNnameConstraintsTest1EE", .valid),
    PKITSCase("4.13.2", ["nameConstraintsDN1CACert"], "InvalidDNnameConstraintsTest2EE", .invalid),
    PKITSCase("4.13.3", ["nameConstraintsDN1CACert"], "InvalidDNnameConstraintsTest3EE", .invalid),
    PKITSCase("4.13.4", ["nameConstraintsDN1CACert"], "ValidDNnameConstraintsTest4EE", .valid),
    PKITSCase("4.13.5", ["nameConstraintsDN2CACert"], "ValidDNnameConstraintsTest5EE", .valid),
    PKITSCase("4.13.6", ["nameConstraintsDN3CACert"], "ValidDNnameConstraintsTest6EE", .valid),
    PKITSCase("4.13.7", ["nameConstraintsDN3CACert"], "InvalidDNnameConstraintsTest7EE", .invalid),
    PKITSCase("4.13.8", ["nameConstraintsDN4CACert"], "InvalidDNnameConstraintsTest8EE", .invalid),
    PKITSCase("4.13.9", ["nameConstraintsDN4CACert"], "InvalidDNnameConstraintsTest9EE", .invalid),
    PKITSCase("4.13.10", ["nameConstraintsDN5CACert"], "InvalidDNnameConstraintsTest10EE", .invalid),
    PKITSCase("4.13.11", ["nameConstraintsDN5CACert"], "ValidDNnameConstraintsTest11EE", .valid),
    PKITSCase("4.13.12", ["nameConstraintsDN1CACert", "nameConstraintsDN1subCA1Cert"], "InvalidDNnameConstraintsTest12EE", .invalid),
    PKITSCase("4.13.13", ["nameConstraintsDN1CACert", "nameConstraintsDN1subCA2Cert"], "InvalidDNnameConstraintsTest13EE", .invalid),
    PKITSCase("4.13.14", ["nameConstraintsDN1CACert", "nameConstraintsDN1subCA2Cert"], "ValidDNnameConstraintsTest14EE", .valid),
    PKITSCase("4.13.15", ["nameConstraintsDN3CACert", "nameConstraintsDN3subCA1Cert"], "InvalidDNnameConstraintsTest15EE", .invalid),
    PKITSCase("4.13.16", ["nameConstraintsDN3CACert", "nameConstraintsDN3subCA1Cert"], "InvalidDNnameConstraintsTest16EE", .invalid),
    PKITSCase("4.13.17", ["nameConstraintsDN3CACert", "nameConstraintsDN3subCA2Cert"], "InvalidDNnameConstraintsTest17EE", .invalid),
    PKITSCase("4.13.18", ["nameConstraintsDN3CACert", "nameConstraintsDN3subCA2Cert"], "ValidDNnameConstraintsTest18EE", .valid),
    PKITSCase("4.13.19", ["nameConstraintsDN1CACert", "nameConstraintsDN1SelfIssuedCACert"], "ValidDNnameConstraintsTest19EE", .valid),
    PKITSCase("4.13.20", ["nameConstraintsDN1CACert"], "InvalidDNnameConstraintsTest20EE", .invalid),
    PKITSCase("4.13.21", ["nameConstraintsRFC822CA1Cert"], "ValidRFC822nameConstraintsTest21EE", .valid),
    PKITSCase("4.13.22", ["nameConstraintsRFC822CA1Cert"], "InvalidRFC822nameConstraintsTest22EE", .invalid),
    PKITSCase("4.13.23", ["nameConstraintsRFC822CA2Cert"], "ValidRFC822nameConstraintsTest23EE", .valid),
    PKITSCase("4.13.24", ["nameConstraintsRFC822CA2Cert"], "InvalidRFC822nameConstraintsTest24EE", .invalid),
    PKITSCase("4.13.25", ["nameConstraintsRFC822CA3Cert"], "ValidRFC822nameConstraintsTest25EE", .valid),
    PKITSCase("4.13.26", ["nameConstraintsRFC822CA3Cert"], "InvalidRFC822nameConstraintsTest26EE", .invalid),
    PKITSCase("4.13.27", ["nameConstraintsDN1CACert", "nameConstraintsDN1subCA3Cert"], "ValidDNandRFC822nameConstraintsTest27EE", .valid),
    PKITSCase(
        "4.13.28", ["nameConstraintsDN1CACert", "nameConstraintsDN1subCA3Cert"], "InvalidDNandRFC822nameConstraintsTest28EE", .invalid),
    PKITSCase(
        "4.13.29", ["nameConstraintsDN1CACert", "nameConstraintsDN1subCA3Cert"], "InvalidDNandRFC822nameConstraintsTest29EE", .invalid),
    PKITSCase("4.13.30", ["nameConstraintsDNS1CACert"], "ValidDNSnameConstraintsTest30EE", .valid),
    PKITSCase("4.13.31", ["nameConstraintsDNS1CACert"], "InvalidDNSnameConstraintsTest31EE", .invalid),
    PKITSCase("4.13.32", ["nameConstraintsDNS2CACert"], "ValidDNSnameConstraintsTest32EE", .valid),
    PKITSCase("4.13.33", ["nameConstraintsDNS2CACert"], "InvalidDNSnameConstraintsTest33EE", .invalid),
    PKITSCase("4.13.34", ["nameConstraintsURI1CACert"], "ValidURInameConstraintsTest34EE", .valid),
    PKITSCase("4.13.35", ["nameConstraintsURI1CACert"], "InvalidURInameConstraintsTest35EE", .invalid),
    PKITSCase("4.13.36", ["nameConstraintsURI2CACert"], "ValidURInameConstraintsTest36EE", .valid),
    PKITSCase("4.13.37", ["nameConstraintsURI2CACert"], "InvalidURInameConstraintsTest37EE", .invalid),
    PKITSCase("4.13.38", ["nameConstraintsDNS1CACert"], "InvalidDNSnameConstraintsTest38EE", .invalid),
    PKITSCase("4.14.1", ["distributionPoint1CACert"], "ValiddistributionPointTest1EE", .valid, revocation: true),
    PKITSCase("4.14.2", ["distributionPoint1CACert"], "InvaliddistributionPointTest2EE", .invalid, revocation: true),
    PKITSCase("4.14.3", ["distributionPoint1CACert"], "InvaliddistributionPointTest3EE", .invalid, revocation: true),
    PKITSCase("4.14.4", ["distributionPoint1CACert"], "ValiddistributionPointTest4EE", .valid, revocation: true),
    PKITSCase("4.14.5", ["distributionPoint2CACert"], "ValiddistributionPointTest5EE", .valid, revocation: true),
    PKITSCase("4.14.6", ["distributionPoint2CACert"], "InvaliddistributionPointTest6EE", .invalid, revocation: true),
    PKITSCase("4.14.7", ["distributionPoint2CACert"], "ValiddistributionPointTest7EE", .valid, revocation: true),
    PKITSCase("4.14.8", ["distributionPoint2CACert"], "InvaliddistributionPointTest8EE", .invalid, revocation: true),
    PKITSCase("4.14.9", ["distributionPoint2CACert"], "InvaliddistributionPointTest9EE", .invalid, revocation: true),
    PKITSCase("4.14.10", ["NoissuingDistributionPointCACert"], "ValidNoissuingDistributionPointTest10EE", .valid, revocation: true),
    PKITSCase("4.14.11", ["onlyContainsUserCertsCACert"], "InvalidonlyContainsUserCertsTest11EE", .invalid, revocation: true),
    PKITSCase("4.14.12", ["onlyContainsCACertsCACert"], "InvalidonlyContainsCACertsTest12EE", .invalid, revocation: true),
    PKITSCase("4.14.13", ["onlyContainsCACertsCACert"], "ValidonlyContainsCACertsTest13EE", .valid, revocation: true),
    PKITSCase("4.14.14", ["onlyContainsAttributeCertsCACert"], "InvalidonlyContainsAttributeCertsTest14EE", .invalid, revocation: true),
    PKITSCase("4.14.15", ["onlySomeReasonsCA1Cert"], "InvalidonlySomeReasonsTest15EE", .invalid, revocation: true),
    PKITSCase("4.14.16", ["onlySomeReasonsCA1Cert"], "InvalidonlySomeReasonsTest16EE", .invalid, revocation: true),
    PKITSCase("4.14.17", ["onlySomeReasonsCA2Cert"], "InvalidonlySomeReasonsTest17EE", .invalid, revocation: true),
    PKITSCase("4.14.18", ["onlySomeReasonsCA3Cert"], "ValidonlySomeReasonsTest18EE", .valid, revocation: true),
    PKITSCase("4.14.19", ["onlySomeReasonsCA4Cert"], "ValidonlySomeReasonsTest19EE", .valid, revocation: true),
    PKITSCase("4.14.20", ["onlySomeReasonsCA4Cert"], "InvalidonlySomeReasonsTest20EE", .invalid, revocation: true),
    PKITSCase("4.14.21", ["onlySomeReasonsCA4Cert"], "InvalidonlySomeReasonsTest21EE", .invalid, revocation: true),
    PKITSCase("4.14.22", ["indirectCRLCA1Cert"], "ValidIDPwithindirectCRLTest22EE", .valid, revocation: true),
    PKITSCase("4.14.23", ["indirectCRLCA1Cert"], "InvalidIDPwithindirectCRLTest23EE", .invalid, revocation: true),
    PKITSCase("4.14.24", ["indirectCRLCA2Cert"], "ValidIDPwithindirectCRLTest24EE", .valid, revocation: true),
    PKITSCase("4.14.25", ["indirectCRLCA2Cert"], "ValidIDPwithindirectCRLTest25EE", .valid, revocation: true),
    PKITSCase("4.14.26", ["indirectCRLCA2Cert"], "InvalidIDPwithindirectCRLTest26EE", .invalid, revocation: true),
    PKITSCase("4.14.27", ["indirectCRLCA2Cert"], "InvalidcRLIssuerTest27EE", .invalid, revocation: true),
    PKITSCase("4.14.28", ["indirectCRLCA3Cert"], "ValidcRLIssuerTest28EE", .valid, revocation: true),
    PKITSCase("4.14.29", ["indirectCRLCA3Cert"], "ValidcRLIssuerTest29EE", .valid, revocation: true),
    PKITSCase("4.14.30", ["indirectCRLCA4Cert"], "ValidcRLIssuerTest30EE", .valid, revocation: true),
    PKITSCase("4.14.31", ["indirectCRLCA6Cert"], "InvalidcRLIssuerTest31EE", .invalid, revocation: true),
    PKITSCase("4.14.32", ["indirectCRLCA6Cert"], "InvalidcRLIssuerTest32EE", .invalid, revocation: true),
    PKITSCase("4.14.33", ["indirectCRLCA6Cert"], "ValidcRLIssuerTest33EE", .valid, revocation: true),
    PKITSCase("4.14.34", ["indirectCRLCA5Cert"], "InvalidcRLIssuerTest34EE", .invalid, revocation: true),
    PKITSCase("4.14.35", ["indirectCRLCA5Cert"], "InvalidcRLIssuerTest35EE", .invalid, revocation: true),
    PKITSCase("4.15.1", ["deltaCRLIndicatorNoBaseCACert"], "InvaliddeltaCRLIndicatorNoBaseTest1EE", .invalid, revocation: true),
    PKITSCase("4.15.2", ["deltaCRLCA1Cert"], "ValiddeltaCRLTest2EE", .valid, revocation: true),
    PKITSCase("4.15.3", ["deltaCRLCA1Cert"], "InvaliddeltaCRLTest3EE", .invalid, revocation: true),
    PKITSCase("4.15.4", ["deltaCRLCA1Cert"], "InvaliddeltaCRLTest4EE", .invalid, revocation: true),
    PKITSCase("4.15.5", ["deltaCRLCA1Cert"], "ValiddeltaCRLTest5EE", .valid, revocation: true),
    PKITSCase("4.15.6", ["deltaCRLCA1Cert"], "InvaliddeltaCRLTest6EE", .invalid, revocation: true),
    PKITSCase("4.15.7", ["deltaCRLCA1Cert"], "ValiddeltaCRLTest7EE", .valid, revocation: true),
    PKITSCase("4.15.8", ["deltaCRLCA2Cert"], "ValiddeltaCRLTest8EE", .valid, revocation: true),
    PKITSCase("4.15.9", ["deltaCRLCA2Cert"], "InvaliddeltaCRLTest9EE", .invalid, revocation: true),
    PKITSCase("4.15.10", ["deltaCRLCA3Cert"], "InvaliddeltaCRLTest10EE", .invalid, revocation: true),
    PKITSCase("4.16.1", [], "ValidUnknownNotCriticalCertificateExtensionTest1EE", .valid),
    PKITSCase("4.16.2", [], "InvalidUnknownCriticalCertificateExtensionTest2EE", .invalid),
]
