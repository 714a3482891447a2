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
            value: AnswerEncoding.mdoc(verified, values: request.values),
            notEnforced: (anchor == .requestRoots ? ["iacaRoots"] : []) + (unauthenticated ? ["deviceAuthentication"] : [])
                + timeRelaxation(at: request.at))
    }

    /// Whether every one of `given` is one of `configured`, by its DER.
    static func areAll(_ given: [Certificate], among configured: [Certificate]) -> Bool {
        !given.isEmpty && given.allSatisfy { root in configured.contains { $0.derBytes == root.derBytes } }
    }
}

extension AnswerEncoding {
    /// A verified DeviceResponse: version, status, document errors, and per document its type,
    /// how the device authenticated the session, the MSO's digest algorithm and validity (RFC 3339
    /// as signed), the document signer's chain (subjects), and its elements by namespace,
    /// identifier and kind — each value only when `values` is set (personal data).
    static func mdoc(_ response: VerifiedDeviceResponse, values: Bool) -> JSONValue {
        func element(_ element: MdocElement) -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("nameSpace", .string(element.nameSpace)), ("identifier", .string(element.identifier)),
                ("kind", .string(element.value.kindDescription)),
            ]
            if values { members.append(("value", value(element.value))) }
            return .object(members)
        }
        func codes(_ map: [String: Int64]) -> JSONValue {
            .object(map.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) })
        }
        let documents = response.documents.map { document -> JSONValue in
            let validity = document.mobileSecurityObject.validityInfo
            var validityMembers: [(String, JSONValue)] = [
                ("signed", .string(validity.signed.text)), ("validFrom", .string(validity.validFrom.text)),
                ("validUntil", .string(validity.validUntil.text)),
            ]
            if let update = validity.expectedUpdate { validityMembers.append(("expectedUpdate", .string(update.text))) }
            return .object([
                ("docType", .string(document.docType)),
                ("deviceAuthentication", .string(document.deviceAuthentication.answerName)),
                ("deviceAuthenticated", .bool(document.deviceAuthentication.isVerified)),
                ("digestAlgorithm", .string(document.mobileSecurityObject.digestAlgorithm.rawValue)),
                ("validityInfo", .object(validityMembers)),
                ("issuerChain", .array(document.issuerChain.map { .string($0.subject.rfc4514String) })),
                ("issuerSigned", .array(document.issuerSignedElements.map(element))),
                ("deviceSigned", .array(document.deviceSignedElements.map(element))),
                (
                    "elementErrors",
                    .object(document.elementErrors.sorted { $0.key < $1.key }.map { ($0.key, codes($0.value)) })
                ),
            ])
        }
        return .object([
            ("version", .string(response.version)), ("status", .int(Int64(clamping: response.status))),
            ("documentErrors", codes(response.documentErrors)), ("documents", .array(documents)),
        ])
    }

    /// An element's value as JSON: text, integers, booleans and null as themselves, byte strings
    /// in standard base64, full-dates and tdates as their text (a tdate exactly as signed), finite
    /// floats as numbers and others as text, arrays and maps (keys as text) recursively, other tags
    /// as `{"tag", "value"}`, integers beyond 64 bits as text (`disclosedDescription`: the value,
    /// or −1 − n for a negative one).
    static func value(_ value: MdocElementValue) -> JSONValue {
        switch value {
        case .text(let text): .string(text)
        case .bytes(let bytes): .string(Base64.encode(bytes))
        case .integer(let n): .int(n)
        case .bool(let b): .bool(b)
        case .float(let f): f.isFinite ? .number(String(f)) : .string(String(f))
        case .null: .null
        case .fullDate(let date): .string(date.description)
        case .dateTime(let time): .string(time.text)
        case .array(let items): .array(items.map { Self.value($0) })
        case .map(let entries):
            // Text keys are unique (CBOR refuses a key twice); other keys could print alike, so a map
            // with any is an array of {"key", "value"}.
            if entries.allSatisfy({ $0.key.text != nil }) {
                .object(entries.map { ($0.key.text ?? "", Self.value($0.value)) })
            } else {
                .array(entries.map { .object([("key", Self.value($0.key)), ("value", Self.value($0.value))]) })
            }
        case .tagged(let tag, let inner): .object([("tag", .number(String(tag))), ("value", Self.value(inner))])
        case .otherInteger: .string(value.disclosedDescription)
        }
    }
}

extension DeviceAuthenticationMethod {
    /// The answer's name: `deviceSignature`, `deviceMac` or `deviceMacNotVerified`.
    var answerName: String {
        switch self {
        case .signature: "deviceSignature"
        case .mac: "deviceMac"
        case .macNotVerified: "deviceMacNotVerified"
        }
    }
}
#endif
