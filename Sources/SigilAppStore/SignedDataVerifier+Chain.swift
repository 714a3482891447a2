import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys
import SigilX509

extension SignedDataVerifier {
    /// Every step without suspension, the synchronous entry points' one path: the chain checked
    /// for revocation only by an offline checker (data the caller supplied).
    func verifyOffline<Payload: AppStoreSignedPayload>(
        _ jws: JWS, payloadJSON: JSONValue, as type: Payload.Type, at time: Int64?, trace: VerificationTrace?
    ) throws(AppStoreError) -> VerifiedSignedData<Payload> {
        let payload = try decode(jws, payloadJSON: payloadJSON, as: type, trace: trace)
        let envelope: Envelope
        switch try prepare(
            jws, payloadJSON: payloadJSON, kind: Payload.kind, validationDate: payload.validationDate, at: time, trace: trace)
        {
        case .done(let done): envelope = done
        case .needsChain(let pending):
            let result: CertificateVerifier.Result
            if case .offline(let checker) = configuration.revocation {
                // The chain at its validation time, revocation as of now (or the caller's time).
                result = certificateVerifier.verify(
                    leaf: pending.leaf, intermediates: [pending.intermediate], at: pending.validationTime,
                    checkingRevocationWith: checker, asOf: pending.revocationTime, trace: trace)
            } else {
                result = certificateVerifier.verify(
                    leaf: pending.leaf, intermediates: [pending.intermediate], at: pending.validationTime, trace: trace)
            }
            envelope = try finish(pending, chainResult: result, trace: trace)
        }
        return try checkIdentity(payload, envelope, trace: trace)
    }

    #if !hasFeature(Embedded)
    /// The asynchronous path: the synchronous one unless an online check is configured; then the
    /// same steps with the chain's revocation checked online between validation and the
    /// signature.
    func verify<Payload: AppStoreSignedPayload>(
        _ jws: JWS, payloadJSON: JSONValue, as type: Payload.Type, at time: Int64?, trace: VerificationTrace?
    ) async throws(AppStoreError) -> VerifiedSignedData<Payload> {
        // Without online checks nothing suspends: take the synchronous path.
        guard case .online(let online) = configuration.revocation else {
            return try verifyOffline(jws, payloadJSON: payloadJSON, as: type, at: time, trace: trace)
        }
        let payload = try decode(jws, payloadJSON: payloadJSON, as: type, trace: trace)
        let envelope: Envelope
        switch try prepare(
            jws, payloadJSON: payloadJSON, kind: Payload.kind, validationDate: payload.validationDate, at: time, trace: trace)
        {
        case .done(let done): envelope = done
        case .needsChain(let pending):
            // The chain at its validation time, revocation as of now (or the caller's time): what
            // the checker knows today, whatever the time the chain was validated at.
            let result = await certificateVerifier.verify(
                leaf: pending.leaf, intermediates: [pending.intermediate], at: pending.validationTime,
                checkingRevocationWith: online, asOf: pending.revocationTime, trace: trace)
            envelope = try finish(pending, chainResult: result, trace: trace)
        }
        return try checkIdentity(payload, envelope, trace: trace)
    }
    #endif

    /// Steps 1–6 done (for any payload type; the decoded payload travels beside it): what the
    /// result carries besides the payload. The steps between decoding and the identity check are
    /// not generic, so the module holds one copy of them rather than one per payload type.
    struct Envelope {
        let payloadBytes: [UInt8]
        let payloadJSON: JSONValue
        let header: JSONValue
        let chain: [Certificate]
        let validationTime: Int64
        let trust: SignedDataTrust
        let chainFromCache: Bool
    }

    /// What an uncached chain needs validated (held by reference: one allocation on the uncached
    /// path, and the code that copies `Prepared` stays small in every binary that links it).
    final class Pending: Sendable {
        let jws: JWS
        let payloadJSON: JSONValue
        let leaf: Certificate
        let intermediate: Certificate
        let cacheKey: ChainCache.Key
        let validationTime: Int64
        /// The time revocation is checked at: now, or the caller's time.
        let revocationTime: Int64

        init(
            jws: JWS, payloadJSON: JSONValue, leaf: Certificate, intermediate: Certificate, cacheKey: ChainCache.Key,
            validationTime: Int64, revocationTime: Int64
        ) {
            self.jws = jws
            self.payloadJSON = payloadJSON
            self.leaf = leaf
            self.intermediate = intermediate
            self.cacheKey = cacheKey
            self.validationTime = validationTime
            self.revocationTime = revocationTime
        }
    }

    enum Prepared {
        case done(Envelope)
        case needsChain(Pending)
    }

    /// Steps 2 and 4, and step 6 when the chain is cached, for a decoded payload of `kind` whose
    /// validation date (signedDate, or receiptCreationDate of an app transaction) is
    /// `validationDate`.
    func prepare(
        _ jws: JWS, payloadJSON: JSONValue, kind: SignedDataKind, validationDate: AppStoreDate?, at time: Int64?,
        trace: VerificationTrace?
    ) throws(AppStoreError) -> Prepared {
        let now = clock()
        if environments.trust == .unverified {
            trace?.note(
                "Apple: LocalTesting (AcceptedEnvironments.localTestingUnsigned)",
                "INSECURE: no signature or chain is checked — the verifier was built to accept unsigned LocalTesting data")
            return .done(
                Envelope(
                    payloadBytes: jws.payload, payloadJSON: payloadJSON, header: jws.header, chain: [],
                    validationTime: time ?? now, trust: .unverified, chainFromCache: false))
        }
        // Step 2: algorithm and x5c.
        guard jws.algorithm == "ES256" else {
            trace?.fail("RFC 7515 §4.1.1", "header alg is ES256", "alg is \(jws.header["alg"]?.serialized ?? "absent")")
            throw AppStoreError(.invalidJWTFormat, "header alg is \(jws.header["alg"]?.serialized ?? "absent"), not \"ES256\"")
        }
        let listed: [String]?
        do { listed = try jws.x5cStrings() } catch {
            trace?.fail("RFC 7515 §4.1.6", "header x5c is an array of strings", error.reason)
            throw AppStoreError(.invalidJWTFormat, error.reason)
        }
        guard let x5cStrings = listed else {
            trace?.fail("RFC 7515 §4.1.6", "header x5c present", "no x5c array")
            throw AppStoreError(.invalidJWTFormat, "the header has no x5c certificate chain")
        }
        if environments.trust == .xcodeSelfSigned {
            return .done(try verifyXcode(jws, payloadJSON: payloadJSON, x5c: x5cStrings, time: time ?? now, trace: trace))
        }
        guard x5cStrings.count == 3 else {
            trace?.fail("Apple signed data", "x5c holds leaf, intermediate, root", "\(x5cStrings.count) certificates")
            throw AppStoreError(.invalidChainLength, "x5c holds \(x5cStrings.count) certificates, expected 3")
        }
        trace?.pass(
            "RFC 7515 §4.1.1/§4.1.6", "header alg ES256, x5c of three certificates", "x5c[2] is ignored: roots come from the caller")

        // Validation time: the payload's date (as Apple's libraries offline), with or without a
        // revocation checker; revocation itself is checked now.
        let validationTime: Int64
        if let time {
            validationTime = time
        } else if let date = validationDate {
            validationTime = date.secondsSince1970
        } else {
            validationTime = now
        }
        trace?.note(
            "RFC 5280 §6.1.1 (validation time)",
            "\(validationTime) (\(AppStoreDate(millisecondsSince1970: Double(validationTime) * 1000))) — "
                + (time != nil
                    ? "given by the caller"
                    : validationDate != nil
                        ? "the payload's \(kind == .appTransaction ? "receiptCreationDate" : "signedDate")"
                            + (checksRevocation ? "; revocation is checked now (\(now))" : "")
                        : "now (the payload carries no date)"))

        let key = ChainCache.Key(leaf: x5cStrings[0], intermediate: x5cStrings[1], context: trustContext)
        if let entry = cache.lookup(key, validationTime: validationTime, now: now, online: checksRevocation) {
            trace?.pass(
                "cache", "chain validated earlier",
                "leaf \(entry.chain[0].subject.rfc4514String) valid \(entry.validFrom)…\(entry.validUntil)")
            try verifySignature(jws, key: entry.leafKey, trace: trace)
            return .done(
                Envelope(
                    payloadBytes: jws.payload, payloadJSON: payloadJSON, header: jws.header, chain: entry.chain,
                    validationTime: validationTime, trust: .appleChain, chainFromCache: true))
        }
        // Step 4: decode leaf and intermediate.
        let leaf = try Self.certificate(x5cStrings[0], index: 0, trace: trace)
        let intermediate = try configuration.intermediateParses.certificate(for: x5cStrings[1]) { (text) throws(AppStoreError) in
            try Self.certificate(text, index: 1, trace: trace)
        }
        for (index, certificate) in (trace == nil ? [Certificate]() : [leaf, intermediate]).enumerated() {
            trace?.note(
                "RFC 5280 §4.1",
                "x5c[\(index)]: subject \(certificate.subject.rfc4514String); issuer \(certificate.issuer.rfc4514String); "
                    + "valid \(certificate.validity.notBefore)…\(certificate.validity.notAfter); key \(certificate.publicKey); "
                    + "extensions \(certificate.extensions.map { $0.oid.dotted }.joined(separator: ", "))")
        }
        return .needsChain(
            Pending(
                jws: jws, payloadJSON: payloadJSON, leaf: leaf, intermediate: intermediate,
                cacheKey: key, validationTime: validationTime, revocationTime: time ?? now))
    }

    /// An x5c entry (standard base64 DER) as a certificate (step 4); `index` 0 is the leaf, 1 the
    /// intermediate.
    static func certificate(_ text: String, index: Int, trace: VerificationTrace?) throws(AppStoreError) -> Certificate {
        let name = index == 0 ? "leaf" : "intermediate"
        let context = "x5c[\(index)] (\(name)) is not a valid certificate"
        let der: [UInt8]
        do { der = try JWS.certificateDER(text) } catch {
            trace?.fail("RFC 5280 §4.1", "decode the \(name) certificate", "\(error)")
            throw AppStoreError(wrapping: error, as: .invalidCertificate, context: context)
        }
        do { return try Certificate(derEncoded: der) } catch {
            trace?.fail("RFC 5280 §4.1", "decode the \(name) certificate", "\(error)")
            throw AppStoreError(wrapping: error, as: .invalidCertificate, context: context)
        }
    }

    /// Whether the chain is checked for revocation (online or offline): cached chains are kept
    /// apart, and the trace says revocation is checked now.
    var checksRevocation: Bool { configuration.revocation.checksRevocation }

    func finish(
        _ pending: Pending, chainResult: CertificateVerifier.Result,
        trace: VerificationTrace?
    ) throws(AppStoreError) -> Envelope {
        // Step 5: the chain.
        guard case .valid(let chain) = chainResult else {
            let failures = chainResult.failures
            let retryable = failures.contains {
                if case .revocationCheckFailed(_, _, true) = $0 { return true }
                return false
            }
            trace?.fail(
                "RFC 5280 §6.1 + Apple signed-data policy" + (checksRevocation ? " + revocation (§6.1.3 (a)(3))" : ""),
                "validate the chain",
                failures.map { $0.description }.joined(separator: "; "))
            throw AppStoreError(
                retryable ? .retryableVerificationFailure : .verificationFailure, "the certificate chain does not validate",
                failures: failures)
        }
        trace?.pass(
            "RFC 5280 §6.1 + Apple signed-data policy" + (checksRevocation ? " + revocation (§6.1.3 (a)(3))" : ""), "validate the chain",
            "root matched: \(chain[chain.count - 1].subject.rfc4514String); leaf OID \(AppleOIDs.appStoreReceiptSigning.dotted) and intermediate OID "
                + "\(AppleOIDs.wwdrIntermediate.dotted) present"
        )
        // Step 6: leaf key and signature.
        guard case .ec(let leafKey) = pending.leaf.publicKey, leafKey.curve == .p256 else {
            trace?.fail("Apple signed data", "leaf key is P-256", "\(pending.leaf.publicKey)")
            throw AppStoreError(.verificationFailure, "the leaf key is \(pending.leaf.publicKey), not P-256")
        }
        try verifySignature(pending.jws, key: leafKey, trace: trace)
        let validity = chain.reduce((Int64.min, Int64.max)) {
            (
                $0.0 < $1.validity.notBefore ? $1.validity.notBefore : $0.0,
                $0.1 > $1.validity.notAfter ? $1.validity.notAfter : $0.1
            )
        }
        let now = clock()
        cache.store(
            pending.cacheKey,
            ChainCache.Entry(
                chain: chain, leafKey: leafKey, validFrom: validity.0, validUntil: validity.1,
                expires: now + cache.timeToLive, online: checksRevocation), now: now)
        cache.storeHeader(of: pending.jws)
        return Envelope(
            payloadBytes: pending.jws.payload, payloadJSON: pending.payloadJSON, header: pending.jws.header,
            chain: chain,
            validationTime: pending.validationTime, trust: .appleChain, chainFromCache: false)
    }

    func verifySignature(_ jws: JWS, key: ECDSAPublicKey, trace: VerificationTrace?) throws(AppStoreError) {
        do {
            try jws.verify(with: .ecdsa(key))
        } catch {
            trace?.fail("RFC 7515 §5.2 / RFC 7518 §3.4", "ES256 signature", error.reason)
            throw AppStoreError(.verificationFailure, "the JWS signature: \(error.reason)")
        }
        if let trace {
            let input = String(decoding: jws.signingInput, as: UTF8.self)
            trace.pass(
                "RFC 7515 §5.2 / RFC 7518 §3.4", "ES256 signature (P-256, SHA-256, R ‖ S)",
                "SHA-256 of the \(jws.signingInput.count)-byte signing input \(input.prefix(48))… = "
                    + Base16.encode(SHA256.hash(jws.signingInput)) + " verifies with the leaf key")
        }
    }

    func verifyXcode(
        _ jws: JWS, payloadJSON: JSONValue, x5c: [String], time: Int64,
        trace: VerificationTrace?
    ) throws(AppStoreError) -> Envelope {
        guard let first = x5c.first else { throw AppStoreError(.invalidChainLength, "x5c is empty") }
        let certificate = try Self.certificate(first, index: 0, trace: trace)
        if case .given(let expected) = xcodeCertificate, certificate != expected {
            trace?.fail(
                "Apple: Xcode", "x5c[0] is the Xcode certificate given", "\(certificate.subject.rfc4514String) is another certificate")
            throw AppStoreError(.verificationFailure, "x5c[0] (\(certificate.subject.rfc4514String)) is not the Xcode certificate given")
        }
        guard case .ec(let key) = certificate.publicKey, key.curve == .p256 else {
            throw AppStoreError(.verificationFailure, "the Xcode certificate's key is not P-256")
        }
        try verifySignature(jws, key: key, trace: trace)
        trace?.note(
            "Apple: Xcode",
            "signature checked against the self-signed StoreKit Testing certificate "
                + (xcodeCertificate == .carriedByTheData ? "x5c carries (integrity only)" : "given by the caller") + "; no chain to Apple")
        return Envelope(
            payloadBytes: jws.payload, payloadJSON: payloadJSON, header: jws.header, chain: [certificate],
            validationTime: time, trust: .xcodeSelfSigned, chainFromCache: false)
    }
}
