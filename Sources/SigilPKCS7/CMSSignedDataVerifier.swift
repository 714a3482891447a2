import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// Verification of CMS SignedData (RFC 5652 §5.4–5.6): the signer's certificate is found by its
/// SignerIdentifier among the message's certificates; with signed attributes, the content-type
/// attribute must equal eContentType and the message-digest attribute the digest of the content,
/// and the signature covers the attributes' DER SET; without them it covers the content. The
/// signer must then chain to one of the caller's trusted roots under the caller's policies at the
/// caller's time (ARCHITECTURE.md, Conventions: time and trust are passed in). Variable time
/// (public inputs). For app receipts, SigilReceipts' `AppReceiptVerifier` runs this with Apple's rules.
public struct CMSSignedDataVerifier: Sendable {
    /// The roots a signer must chain to.
    public var trustedRoots: [Certificate]
    /// The policies the signer's chain is validated under, besides the RFC 5280 basics, as the
    /// verifier holds them (one concrete type: no existential on the verification path).
    public var erasedPolicies: [AnyCertificatePolicy]
    #if !hasFeature(Embedded)
    /// The policies the signer's chain is validated under, besides the RFC 5280 basics, as given.
    public var policies: [any CertificatePolicy] {
        get { erasedPolicies.map { $0.given } }
        set { erasedPolicies = newValue.map { AnyCertificatePolicy(erasing: $0) } }
    }
    #endif
    /// RSA keys smaller than this verify nothing.
    public var minimumRSABits: Int

    /// A verifier trusting `trustedRoots`, validating the signer's chain under `policies` (the
    /// RFC 5280 basics always apply), refusing RSA keys under `minimumRSABits`.
    public init(
        trustedRoots: [Certificate], policies: [AnyCertificatePolicy] = [AnyCertificatePolicy(RFC5280Policy())],
        minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits
    ) {
        self.trustedRoots = trustedRoots
        self.erasedPolicies = policies
        self.minimumRSABits = minimumRSABits
    }

    #if !hasFeature(Embedded)
    /// A verifier trusting `trustedRoots`, validating the signer's chain under `policies` (any
    /// mix of policy types; the RFC 5280 basics always apply), refusing RSA keys under
    /// `minimumRSABits`.
    @_disfavoredOverload
    public init(
        trustedRoots: [Certificate], policies: [any CertificatePolicy] = [RFC5280Policy()],
        minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits
    ) {
        self.init(trustedRoots: trustedRoots, policies: policies.map { AnyCertificatePolicy(erasing: $0) }, minimumRSABits: minimumRSABits)
    }
    #endif

    /// The signer and the chain it validated through.
    public struct Verified: Sendable {
        /// The certificate whose key made the signature.
        public let signer: Certificate
        /// Signer first, trusted root last.
        public let chain: [Certificate]
    }

    /// Verifies the first (for receipts, the only) SignerInfo at `time`. `trace`, when given,
    /// records every step as it is taken (the failing one included).
    public func verify(
        _ signed: CMSSignedData, at time: Int64, detachedContent: [UInt8]? = nil,
        trace: VerificationTrace? = nil
    ) throws(PKCS7Error) -> Verified {
        func step(_ clause: String, _ check: String, _ passed: Bool?, _ detail: @escaping @autoclosure @Sendable () -> String) {
            guard let trace else { return }
            switch passed {
            case true?: trace.pass(clause, check, detail())
            case false?: trace.fail(clause, check, detail())
            case nil: trace.note(clause, check.isEmpty ? detail() : "\(check): \(detail())")
            }
        }
        func fail(_ clause: String, _ check: String, _ error: PKCS7Error) -> PKCS7Error {
            step(clause, check, false, "\(error.code): \(error.reason)")
            return error
        }
        step(
            "RFC 5652 §5.1", "SignedData parsed", true,
            "version \(signed.version), eContentType \(signed.contentType), \(signed.certificates.count) certificate(s), \(signed.signerInfos.count) SignerInfo(s)"
        )
        guard let signerInfo = signed.signerInfos.first else {
            throw fail("RFC 5652 §5.3", "a SignerInfo", PKCS7Error(.malformed, "no SignerInfo"))
        }
        guard let content = signed.content ?? detachedContent else {
            throw fail("RFC 5652 §5.2", "content present", PKCS7Error(.malformed, "no content to verify"))
        }
        guard let signer = signed.certificates.first(where: signerInfo.identifies) else {
            throw fail(
                "RFC 5652 §5.3 / §10.2.4", "signer certificate found by sid",
                PKCS7Error(.signerNotFound, "no certificate in the message matches the SignerInfo"))
        }
        step("RFC 5652 §5.3 / §10.2.4", "signer certificate found by sid", true, "\(signer.subject), serial \(signer.serialNumberHex)")
        let signedBytes: [UInt8]
        if let attributesDER = signerInfo.signedAttributesDER {
            // RFC 5652 §5.3: content-type and message-digest are required when attributes are present.
            guard let type = signerInfo.attribute(CMSOIDs.contentType), type.values.count == 1,
                type.values[0] == DER.encode(signed.contentType)
            else {
                throw fail(
                    "RFC 5652 §11.1", "content-type attribute equals eContentType",
                    PKCS7Error(.contentTypeAttributeMismatch, "the content-type attribute is missing or differs from eContentType"))
            }
            guard let digest = signerInfo.attribute(CMSOIDs.messageDigest), digest.values.count == 1,
                let node = try? DER.parse(digest.values[0]), let octets = try? ASN1OctetString(node: node)
            else {
                throw fail(
                    "RFC 5652 §11.2", "message-digest attribute",
                    PKCS7Error(.contentDigestMismatch, "the message-digest attribute is missing or malformed"))
            }
            guard octets.bytes == signerInfo.digestAlgorithm.hash(content) else {
                throw fail(
                    "RFC 5652 §11.2", "message-digest attribute equals the content's digest",
                    PKCS7Error(
                        .contentDigestMismatch,
                        "the message-digest attribute does not match the content's \(signerInfo.digestAlgorithm.rawValue)"))
            }
            step(
                "RFC 5652 §5.4 / §11.1–11.2", "signed attributes", true,
                "content-type and message-digest (\(signerInfo.digestAlgorithm.rawValue) of \(content.count) content bytes) match; the signature covers the attributes' DER"
            )
            signedBytes = attributesDER
        } else {
            step(
                "RFC 5652 §5.4", "no signed attributes", nil,
                "the signature covers the \(content.count) content bytes directly (as Apple signs receipts)")
            signedBytes = content
        }
        guard let algorithm = signerInfo.signatureAlgorithm else {
            throw fail(
                "RFC 5652 §5.3 / RFC 3370", "signature algorithm",
                PKCS7Error(.unsupportedAlgorithm, "signature algorithm \(signerInfo.signatureAlgorithmIdentifier.algorithm)"))
        }
        switch signer.publicKey.verifySignatureVartime(
            signerInfo.signature, over: signedBytes, algorithm: algorithm, minimumRSABits: minimumRSABits)
        {
        case .success:
            step("RFC 5652 §5.6; RFC 8017 §8.2.2 / FIPS 186-5 §6.4.2", "signature", true, "\(algorithm) by \(signer.subject) verifies")
        case .failure(.unsupportedAlgorithm(let what)): throw fail("RFC 5652 §5.6", "signature", PKCS7Error(.unsupportedAlgorithm, what))
        case .failure(let reason):
            throw fail("RFC 5652 §5.6", "signature", PKCS7Error(.invalidSignature, "signature by \(signer.subject): \(reason)"))
        }
        let others = signed.certificates.filter { $0 != signer }
        let verifier = CertificateVerifier(trustedRoots: trustedRoots, policies: erasedPolicies, minimumRSABits: minimumRSABits)
        let policyNames = erasedPolicies.map { $0.name }.joined(separator: " + ")
        switch verifier.verify(leaf: signer, intermediates: others, at: time, trace: trace) {
        case .valid(let chain):
            step(
                "RFC 5280 §6.1 (\(policyNames))", "signer chain at \(time)", true,
                chain.map { $0.subject.rfc4514String }.joined(separator: " → "))
            return Verified(signer: signer, chain: chain)
        case .invalid(let failures):
            let reasons = failures.map { $0.description }.joined(separator: "; ")
            throw fail(
                "RFC 5280 §6.1 (\(policyNames))", "signer chain at \(time)",
                PKCS7Error(failures.failsOnlyOnValidityPeriod ? .signerNotValidAtTime : .untrustedSigner, reasons, failures: failures))
        }
    }
}
