import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// What a verified response says about one certificate.
public struct OCSPVerifiedStatus: Hashable, Sendable {
    /// The certificate's status.
    public let status: SingleResponse.CertStatus
    /// When the status was known to be correct, seconds since 1970.
    public let thisUpdate: Int64
    /// When newer information will be available, seconds since 1970; nil when the responder gives no time.
    public let nextUpdate: Int64?
    /// When the response was signed, seconds since 1970.
    public let producedAt: Int64
    /// The certificate that signed the response: the issuer itself or a delegated responder.
    public let signer: Certificate
}

/// Verification of an OCSP response for one certificate (RFC 6960 §3.2 and §4.2.2.2).
/// Variable time (all inputs are public).
public struct OCSPResponseVerifier: Sendable {
    /// Allowed clock difference in seconds (Apple's Swift library uses 4,500).
    public var skew: Int64
    /// RSA signer keys smaller than this are refused.
    public var minimumRSABits: Int

    /// A verifier allowing `skew` seconds of clock difference and refusing RSA keys under `minimumRSABits`.
    public init(skew: Int64 = 4_500, minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits) {
        self.skew = skew
        self.minimumRSABits = minimumRSABits
    }

    /// Checks `response` as the answer about `certificate` (issued by `issuer`) at `time`:
    /// 1. the status is successful; 2. the signer is the issuer, or a certificate in the response
    /// that the issuer signed, that carries id-kp-OCSPSigning, is valid at `time`, and matches the
    /// responderID (§4.2.2.2); 3. the signature over ResponseData verifies; 4. a SingleResponse has
    /// the CertID of the certificate (under its own hash algorithm); 5. the nonce is echoed when
    /// `requestNonce` is given; 6. freshness: thisUpdate ≤ time + skew, nextUpdate (when present)
    /// ≥ time − skew, producedAt ≤ time + skew and not before thisUpdate − skew.
    public func verify(
        _ response: OCSPResponse, certificate: Certificate, issuer: Certificate,
        requestNonce: [UInt8]? = nil, at time: Int64
    ) throws(OCSPError) -> OCSPVerifiedStatus {
        // 1.
        guard response.status == .successful, let basic = response.basic else {
            throw OCSPError(.unsuccessfulStatus, "the responder answered \(response.status)")
        }
        // 2–3.
        let signer = try authorizedSigner(basic, issuer: issuer, at: time)
        switch signer.publicKey.verifySignatureVartime(
            basic.signature, over: basic.tbsResponseData,
            algorithm: basic.signatureAlgorithm, minimumRSABits: minimumRSABits)
        {
        case .success: break
        case .failure(let reason): throw OCSPError(.invalidSignature, "response signature by \(signer.subject): \(reason)")
        }
        // 4.
        guard let single = basic.responses.first(where: { $0.certID.matches(certificate: certificate, issuer: issuer) }) else {
            throw OCSPError(.certIDMismatch, "no SingleResponse is about serial \(certificate.serialNumberHex) of \(issuer.subject)")
        }
        // 5.
        if let requestNonce {
            guard let echoed = basic.nonce else { throw OCSPError(.nonceMismatch, "a nonce was sent and the response has none") }
            guard echoed == requestNonce else { throw OCSPError(.nonceMismatch, "the response's nonce differs from the request's") }
        }
        // 6.
        guard single.thisUpdate <= time + skew else {
            throw OCSPError(.stale, "thisUpdate \(single.thisUpdate) is in the future (time \(time), skew \(skew) s)")
        }
        if let next = single.nextUpdate {
            guard next >= time - skew else { throw OCSPError(.stale, "nextUpdate \(next) has passed (time \(time), skew \(skew) s)") }
            guard next >= single.thisUpdate else { throw OCSPError(.stale, "nextUpdate is before thisUpdate") }
        }
        guard basic.producedAt <= time + skew else { throw OCSPError(.stale, "producedAt \(basic.producedAt) is in the future") }
        guard basic.producedAt >= single.thisUpdate - skew else { throw OCSPError(.stale, "producedAt is before thisUpdate") }
        return OCSPVerifiedStatus(
            status: single.status, thisUpdate: single.thisUpdate, nextUpdate: single.nextUpdate,
            producedAt: basic.producedAt, signer: signer)
    }

    func matches(_ id: BasicOCSPResponse.ResponderID, _ certificate: Certificate) -> Bool {
        switch id {
        case .byName(let name): return certificate.subject.matches(name)
        case .byKey(let hash): return SHA1.hash(certificate.subjectPublicKeyInfo.subjectPublicKey.bytes) == hash
        }
    }

    func authorizedSigner(_ basic: BasicOCSPResponse, issuer: Certificate, at time: Int64) throws(OCSPError) -> Certificate {
        if matches(basic.responderID, issuer) { return issuer }
        var reasons: [String] = []
        for candidate in basic.certificates where matches(basic.responderID, candidate) {
            guard (try? candidate.isSignedVartime(by: issuer, minimumRSABits: minimumRSABits).get()) != nil else {
                reasons.append("\(candidate.subject) is not signed by the issuer")
                continue
            }
            guard candidate.extendedKeyUsage?.contains(X509OIDs.ocspSigning) == true else {
                reasons.append("\(candidate.subject) lacks id-kp-OCSPSigning")
                continue
            }
            guard candidate.validity.contains(time) else {
                reasons.append("\(candidate.subject) is not valid at \(time)")
                continue
            }
            return candidate
        }
        throw OCSPError(
            .unauthorizedResponder,
            reasons.isEmpty
                ? "the responderID names neither the issuer nor a certificate in the response"
                : reasons.joined(separator: "; "))
    }
}
