import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// Verification of CMS SignedData (RFC 5652 §5.4–5.6): the signer's certificate is found by its
/// SignerIdentifier among the message's certificates; with signed attributes, the content-type
/// attribute must equal eContentType and the message-digest attribute the digest of the content,
/// and the signature covers the attributes' DER SET; without them it covers the content. The
/// signer must then chain to one of the caller's trusted roots under the caller's policies at the
/// caller's time (DESIGN.md convention 4). Variable time (public inputs).
public struct SignedDataVerifier: Sendable {
    public var trustedRoots: [Certificate]
    public var policies: [any CertificatePolicy]
    public var minimumRSABits: Int

    public init(trustedRoots: [Certificate], policies: [any CertificatePolicy] = [RFC5280Policy()],
                minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits) {
        self.trustedRoots = trustedRoots
        self.policies = policies
        self.minimumRSABits = minimumRSABits
    }

    public struct Verified: Sendable {
        public let signer: Certificate
        /// Signer first, trusted root last.
        public let chain: [Certificate]
    }

    /// Verifies the first (for receipts, the only) SignerInfo at `time`.
    public func verify(_ signed: SignedData, at time: Int64, detachedContent: [UInt8]? = nil) throws(PKCS7Error) -> Verified {
        guard let signerInfo = signed.signerInfos.first else { throw PKCS7Error(.malformed, "no SignerInfo") }
        guard let content = signed.content ?? detachedContent else { throw PKCS7Error(.malformed, "no content to verify") }
        guard let signer = signed.certificates.first(where: signerInfo.identifies) else {
            throw PKCS7Error(.signerNotFound, "no certificate in the message matches the SignerInfo")
        }
        let signedBytes: [UInt8]
        if let attributesDER = signerInfo.signedAttributesDER {
            // RFC 5652 §5.3: content-type and message-digest are required when attributes are present.
            guard let type = signerInfo.attribute(CMSOIDs.contentType), type.values.count == 1,
                  type.values[0] == DER.encode(signed.contentType) else {
                throw PKCS7Error(.contentTypeAttributeMismatch, "the content-type attribute is missing or differs from eContentType")
            }
            guard let digest = signerInfo.attribute(CMSOIDs.messageDigest), digest.values.count == 1,
                  let node = try? DER.parse(digest.values[0]), let octets = try? ASN1OctetString(node: node) else {
                throw PKCS7Error(.contentDigestMismatch, "the message-digest attribute is missing or malformed")
            }
            guard octets.bytes == signerInfo.digestAlgorithm.hash(content) else {
                throw PKCS7Error(.contentDigestMismatch, "the message-digest attribute does not match the content's \(signerInfo.digestAlgorithm.rawValue)")
            }
            signedBytes = attributesDER
        } else {
            signedBytes = content
        }
        guard let algorithm = signerInfo.signatureAlgorithm else {
            throw PKCS7Error(.unsupportedAlgorithm, "signature algorithm \(signerInfo.signatureAlgorithmIdentifier.algorithm)")
        }
        switch signer.publicKey.verifySignatureVartime(signerInfo.signature, over: signedBytes, algorithm: algorithm, minimumRSABits: minimumRSABits) {
        case .success: break
        case .failure(.unsupportedAlgorithm(let what)): throw PKCS7Error(.unsupportedAlgorithm, what)
        case .failure(let reason): throw PKCS7Error(.invalidSignature, "signature by \(signer.subject): \(reason)")
        }
        let others = signed.certificates.filter { $0 != signer }
        let verifier = CertificateVerifier(trustedRoots: trustedRoots, policies: policies, minimumRSABits: minimumRSABits)
        switch verifier.verify(leaf: signer, intermediates: others, at: time) {
        case .valid(let chain): return Verified(signer: signer, chain: chain)
        case .invalid(let failures):
            let reasons = failures.map(\.description).joined(separator: "; ")
            let onlyTime = !failures.isEmpty && failures.allSatisfy {
                switch $0 {
                case .expired, .notYetValid: true
                default: false
                }
            }
            throw PKCS7Error(onlyTime ? .signerNotValidAtTime : .untrustedSigner, reasons)
        }
    }
}
