import SigilASN1
import SigilApplePKI
import SigilAppleRoots
import SigilPKCS7
import SigilX509

/// Verifies Apple's signature on a payment token: the reference's "Verify the signature" steps.
///
/// 1. The signature is a CMS SignedData (BER, indefinite lengths allowed) with no content of its
///    own; its signed attributes' message digest is that of ``PaymentToken/signedContent`` and the
///    signature over them verifies with the signer's key.
/// 2. The signer chains to the trusted root (Apple Root CA - G3 unless the caller names others)
///    under `MarkerExtensionPolicy.applePayPaymentToken`: the leaf carries
///    1.2.840.113635.100.6.29 and the intermediate 1.2.840.113635.100.6.2.14, at the signing time.
/// 3. The signing time (the signingTime attribute) lies within ``signingTimeTolerance`` seconds of
///    the time the caller gives — now, for a fresh token (default: 5 minutes either way, a replay
///    window), or the time a stored token was received.
///
/// The verdict does not depend on the key the token was made for; ``PaymentTokenDecryptor`` picks
/// the merchant key by `publicKeyHash`. Every step is recorded into the trace when one is given.
/// Variable time: every input is public.
public struct PaymentTokenVerifier: Sendable {
    /// The roots the signer must chain to.
    public var trustedRoots: [Certificate]
    /// How far the signing time may be from the time given to ``verify(_:at:trace:)``, in seconds
    /// (300 by default, as Apple's reference suggests).
    public var signingTimeTolerance: Int64

    /// A verifier trusting `trustedRoots` (Apple Root CA - G3, built in, when nil; a test PKI's
    /// root otherwise).
    public init(trustedRoots: [Certificate]? = nil, signingTimeTolerance: Int64 = 300) throws(ApplePayError) {
        if let trustedRoots {
            self.trustedRoots = trustedRoots
        } else {
            do {
                self.trustedRoots = [try AppleRootCertificates.certificate(.appleRootCAG3)]
            } catch {
                throw ApplePayError(
                    .untrustedSigner, "the built-in Apple Root CA - G3: \(error.reason)", step: "chain", clause: "trust anchor")
            }
        }
        self.signingTimeTolerance = signingTimeTolerance
    }

    /// What a verified token's signature says.
    public struct Verified: Sendable {
        /// The signing time, seconds since 1970.
        public let signingTime: Int64
        /// The signer, its intermediate and the trusted root.
        public let chain: [Certificate]
    }

    /// Verifies `token`'s signature, chain and signing time, with `time` (seconds since 1970) as
    /// now: the chain is validated at the signing time, and the signing time must be within
    /// ``signingTimeTolerance`` of `time`.
    public func verify(_ token: PaymentToken, at time: Int64, trace: VerificationTrace? = nil) throws(ApplePayError) -> Verified {
        let signed: CMSSignedData
        do { signed = try CMSSignedData(berEncoded: token.signature) } catch {
            trace?.fail("RFC 5652 §5.1", "signature is a CMS SignedData", "\(error.qualifiedCode): \(error.reason)")
            throw ApplePayError(
                .invalidSignature, "the signature is not a CMS SignedData: \(error.reason)", step: "signature",
                clause: "Payment Token Format Reference, verify the signature, step a")
        }
        guard signed.content == nil else {
            trace?.fail("Payment Token Format Reference", "detached signature", "the SignedData carries content of its own")
            throw ApplePayError(
                .invalidSignature, "the SignedData carries content; Apple's is detached", step: "signature",
                clause: "Payment Token Format Reference, verify the signature")
        }
        guard let signer = signed.signerInfos.first, signed.signerInfos.count == 1 else {
            throw ApplePayError(
                .invalidSignature, "the SignedData has \(signed.signerInfos.count) SignerInfos, not one", step: "signature",
                clause: "RFC 5652 §5.3")
        }
        // Step 3: the signing time, needed first because the chain is validated at it.
        guard let attribute = signer.attribute(CMSOIDs.signingTime), attribute.values.count == 1,
            let signingTime = Self.time(attribute.values[0])
        else {
            trace?.fail("RFC 5652 §11.3", "signing time attribute", "missing or malformed")
            throw ApplePayError(
                .signingTimeOutsideWindow, "the signature has no readable signing time", step: "signing time",
                clause: "RFC 5652 §11.3; Payment Token Format Reference, verify the signature, step e")
        }
        // Steps 1–2: signature over the token's fields, chain to the root with both markers.
        let verifier = CMSSignedDataVerifier(
            trustedRoots: trustedRoots,
            policies: [AnyCertificatePolicy(RFC5280Policy()), AnyCertificatePolicy(MarkerExtensionPolicy.applePayPaymentToken)])
        let verified: CMSSignedDataVerifier.Verified
        do {
            verified = try verifier.verify(signed, at: signingTime, detachedContent: token.signedContent, trace: trace)
        } catch {
            switch error.code {
            case .untrustedSigner, .signerNotValidAtTime:
                throw ApplePayError(
                    .untrustedSigner, error.reason, step: "chain",
                    clause: "Payment Token Format Reference, verify the signature, steps b–d; RFC 5280 §6.1")
            default:
                throw ApplePayError(
                    .invalidSignature, error.reason, step: "signature",
                    clause: "Payment Token Format Reference, verify the signature, step c; RFC 5652 §5.4–5.6")
            }
        }
        let skew = signingTime > time ? signingTime - time : time - signingTime
        guard skew <= signingTimeTolerance else {
            trace?.fail(
                "Payment Token Format Reference, step e", "signing time within \(signingTimeTolerance) s of \(time)",
                "signed at \(signingTime), \(skew) s away")
            throw ApplePayError(
                .signingTimeOutsideWindow,
                "signed at \(Self.text(signingTime)), \(skew) s from \(Self.text(time)) (tolerance \(signingTimeTolerance) s)",
                step: "signing time", clause: "Payment Token Format Reference, verify the signature, step e")
        }
        trace?.pass(
            "Payment Token Format Reference, step e", "signing time within \(signingTimeTolerance) s",
            "signed at \(Self.text(signingTime))")
        return Verified(signingTime: signingTime, chain: verified.chain)
    }

    /// A signingTime attribute value (RFC 5652 §11.3: UTCTime or GeneralizedTime) as seconds.
    static func time(_ der: [UInt8]) -> Int64? {
        guard let node = try? DER.parse(der) else { return nil }
        if let utc = try? ASN1UTCTime(node: node) { return utc.components.secondsSinceEpoch }
        if let general = try? ASN1GeneralizedTime(node: node) { return general.components.secondsSinceEpoch }
        return nil
    }

    /// RFC 3339 text of a time.
    static func text(_ time: Int64) -> String {
        (try? ASN1TimeComponents(secondsSinceEpoch: time).description) ?? String(time)
    }
}
