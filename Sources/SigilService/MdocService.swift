// Mobile documents (ISO/IEC 18013-5 DeviceResponses): the regular build only. Embedded Swift builds
// of the service answer kind mdoc `service.notConfigured`.
#if !hasFeature(Embedded)
import SigilASN1
import SigilBase
import SigilJOSE
import SigilMdoc
import SigilX509

/// The IACA roots a service trusts for kind `mdoc` when a request brings none: the issuing
/// authorities' roots (or a VICAL's) the service's owner chose, under ``issuerPolicy``. Answers
/// verified under them name `"trust": "iaca-roots"` (``TrustAnchor/iacaRoots``).
///
/// A request's own `roots` are trust configuration like any other: used and named
/// `"trust": "request-roots"`, with `iacaRoots` in `notEnforced`, under
/// ``RequestTrust/acceptedAndReported``; refused under ``RequestTrust/refused`` unless each of them
/// is one of these roots. An empty list is no configuration (`service.notConfigured`).
public struct MdocServiceConfiguration: Sendable {
    /// The IACA root certificates trusted for every mdoc request that brings no roots.
    public let trustedIACARoots: [Certificate]
    /// The Annex B profile the document signer's chain must meet.
    public let issuerPolicy: MdocIssuerPolicy

    /// A configuration trusting `trustedIACARoots` under `issuerPolicy` (Annex B's by default).
    public init(trustedIACARoots: [Certificate], issuerPolicy: MdocIssuerPolicy = MdocIssuerPolicy()) {
        self.trustedIACARoots = trustedIACARoots
        self.issuerPolicy = issuerPolicy
    }
}

/// Kind `mdoc`: SigilMdoc's `MdocVerifier` over the request's DeviceResponse, session transcript and
/// reader key, and its result as the answer.
///
/// What a hostile caller can send, and what it must not get:
/// - its own IACA root, so that a document it issued itself reads as verified: request roots are
///   trust configuration, named in the answer (`"trust": "request-roots"`, `iacaRoots` in
///   `notEnforced`) and refused outright by a service that takes no trust from requests
///   (``RequestTrust/refused``, HTTP 403) unless they are the service's own;
/// - a deviceMac with no reader private key: refused unless the request names
///   `acceptUnverifiedDeviceMAC`, which the answer lists in `notEnforced` as
///   `deviceAuthentication`;
/// - element values into logs and errors: failures carry `mdoc.*` codes and clauses, never a value;
///   the answer lists each element's name and kind, and its value only when the request sets
///   `values`.
///
/// What the door cannot give: proof that the device took part in a session the caller did not
/// make. Device authentication binds the response to the request's transcript and reader key; a
/// deviceMac is keyed by ECDH of the reader's private key and the device's public key (which the
/// MSO publishes), so whoever supplies the reader's private key could have made the MAC, and a
/// recorded response with its transcript verifies again. `deviceAuthenticated` means something to
/// the party that created the transcript (its nonce) and the reader key, and kept them; a server
/// that takes them from a client (ProximityReader hands all three to the app) gets the issuer's
/// signature and the client's word for the session.
extension VerificationService {
    func verifyMdoc(_ request: VerificationRequest) throws(Refusal) -> JSONValue {
        let roots: [Certificate]
        let anchor: TrustAnchor
        let policy: MdocIssuerPolicy
        if let given = request.roots {
            if let configured = mdoc, Self.areAll(given, among: configured.trustedIACARoots) {
                (roots, anchor, policy) = (given, .iacaRoots, configured.issuerPolicy)
            } else {
                do { try admit(.requestRoots, because: "roots") } catch { throw Refusal(error) }
                (roots, anchor, policy) = (given, .requestRoots, MdocIssuerPolicy())
            }
        } else if let configured = mdoc, !configured.trustedIACARoots.isEmpty {
            (roots, anchor, policy) = (configured.trustedIACARoots, .iacaRoots, configured.issuerPolicy)
        } else {
            throw Refusal(
                ServiceConfigurationError(
                    .notConfigured, "kind mdoc needs IACA roots: the request's roots, or the service's (MdocServiceConfiguration)"))
        }
        let verified: VerifiedDeviceResponse
        do throws(MdocError) {
            // Standard base64, white space ignored (a wrapped `base64` output), as for receipts and
            // App Attest objects; what does not decode is data the verifier refuses (422).
            let compact = Base64.removingWhiteSpace(request.data.utf8)
            let response: [UInt8]
            do { response = try Base64.decode(compact) } catch {
                throw MdocError(.invalidCBOR, "data is not standard base64 of a DeviceResponse: \(error.reason)")
            }
            // checkMembersBelongToKind required the transcript.
            let transcript = try SessionTranscript(bytes: request.sessionTranscript ?? [])
            let readerKey = try request.ephemeralReaderKey.map { bytes throws(MdocError) in
                try MdocVerifier.ReaderKey(ephemeralReaderKey: bytes)
            }
            let verifier = MdocVerifier(
                trustedIACARoots: roots, issuerPolicy: policy,
                relaxations: request.acceptUnverifiedDeviceMAC ? [.acceptUnverifiedDeviceMAC] : [])
            verified = try verifier.verify(
                deviceResponse: response, sessionTranscript: transcript, readerKey: readerKey ?? .notHeld, at: request.at ?? clock())
        } catch { throw Refusal(error) }
        let unauthenticated = verified.documents.contains { !$0.deviceAuthentication.isVerified }
        return AnswerEncoding.valid(
            kind: request.kind.rawValue, environment: nil, trust: anchor, field: "response",
            value: verified.answerJSON(values: request.values),
            notEnforced: (anchor == .requestRoots ? ["iacaRoots"] : []) + (unauthenticated ? ["deviceAuthentication"] : [])
                + timeRelaxation(at: request.at))
    }

    /// Whether every one of `given` is one of `configured`, by its DER.
    static func areAll(_ given: [Certificate], among configured: [Certificate]) -> Bool {
        !given.isEmpty && given.allSatisfy { root in configured.contains { $0.derBytes == root.derBytes } }
    }
}

#endif
