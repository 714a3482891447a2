import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCore
import SigilPKCS7
import SigilReceipts
import SigilX509

/// An App Attest fraud-metric receipt's fields (Apple, "Assessing fraud risk"). The payload is
/// the app receipt's layout — `SET OF SEQUENCE { type INTEGER, version INTEGER, value OCTET
/// STRING }` — with raw values (UTF-8 text, DER certificate, bytes), not DER-wrapped ones.
public struct AttestationReceipt: Sendable {
    /// The field numbers (facts from Apple's documentation).
    public enum Field: Int, Sendable, CaseIterable {
        /// The App ID ("TEAMID.bundle.id").
        case appID = 2
        /// The attested public key: the credential certificate, DER.
        case attestedPublicKey = 3
        /// The client hash: the clientDataHash of the attestation.
        case clientHash = 4
        /// The token (for Apple's fraud-metric refresh).
        case token = 5
        /// The receipt type: "ATTEST" or "RECEIPT".
        case receiptType = 6
        /// The environment ("production"; absent or "sandbox" otherwise).
        case environment = 7
        /// The creation time (RFC 3339).
        case creationTime = 12
        /// The risk metric (a decimal count), in refreshed receipts.
        case riskMetric = 17
        /// Not before: when the receipt may first be refreshed (RFC 3339).
        case notBefore = 19
        /// The expiration time (RFC 3339).
        case expirationTime = 21
    }

    /// Every attribute as read.
    public let attributes: [ReceiptAttribute]
    /// Field 2.
    public let appID: String
    /// Field 3, the credential certificate as DER.
    public let attestedCertificate: Certificate
    /// Field 4.
    public let clientHash: [UInt8]?
    /// Field 5.
    public let token: String?
    /// Field 6: "ATTEST" or "RECEIPT".
    public let receiptType: String
    /// Field 7.
    public let environment: String?
    /// Field 12, as signed (its fraction of a second kept).
    public let creationTime: RFC3339Timestamp
    /// Field 17, when present.
    public let riskMetric: Int64?
    /// Field 19, as signed, when present.
    public let notBefore: RFC3339Timestamp?
    /// Field 21, as signed, when present.
    public let expirationTime: RFC3339Timestamp?

    /// Reads a payload; the App ID, attested key, type and creation time are required.
    public init(payload: [UInt8]) throws(AppAttestError) {
        func refuse(_ reason: String) -> AppAttestError { AppAttestError(.malformedReceipt, "receipt payload: \(reason)") }
        do { attributes = try ReceiptAttribute.payload(payload) } catch {
            throw refuse("not a SET OF ReceiptAttribute: \(error)")
        }
        var seen: Set<Int> = []
        for attribute in attributes where Field(rawValue: attribute.type) != nil {
            guard seen.insert(attribute.type).inserted else { throw refuse("field \(attribute.type) appears twice") }
        }
        let attributes = attributes
        func value(_ field: Field) -> [UInt8]? { attributes.first { $0.type == field.rawValue }?.value }
        func text(_ field: Field) throws(AppAttestError) -> String? {
            guard let bytes = value(field) else { return nil }
            guard let text = String(validating: bytes, as: UTF8.self) else { throw refuse("field \(field.rawValue) is not UTF-8 text") }
            return text
        }
        func time(_ field: Field) throws(AppAttestError) -> RFC3339Timestamp? {
            guard let text = try text(field) else { return nil }
            guard let time = RFC3339Timestamp(text) else { throw refuse("field \(field.rawValue) is not an RFC 3339 time: \(text)") }
            return time
        }
        guard let appID = try text(.appID) else { throw refuse("no App ID (field 2)") }
        guard let keyDER = value(.attestedPublicKey) else { throw refuse("no attested public key (field 3)") }
        do { attestedCertificate = try Certificate(derEncoded: keyDER) } catch {
            throw refuse("field 3 is not a certificate: \(error.reason)")
        }
        guard let type = try text(.receiptType) else { throw refuse("no receipt type (field 6)") }
        guard type == "ATTEST" || type == "RECEIPT" else { throw refuse("receipt type \"\(type)\" is neither ATTEST nor RECEIPT") }
        guard let creation = try time(.creationTime) else { throw refuse("no creation time (field 12)") }
        self.appID = appID
        receiptType = type
        creationTime = creation
        clientHash = value(.clientHash)
        token = try text(.token)
        environment = try text(.environment)
        if let metric = try text(.riskMetric) {
            guard let number = Int64(metric), number >= 0 else { throw refuse("risk metric \"\(metric)\" is not a count") }
            riskMetric = number
        } else {
            riskMetric = nil
        }
        notBefore = try time(.notBefore)
        expirationTime = try time(.expirationTime)
    }

    /// The attested public key (P-256), when the certificate carries one.
    public var attestedPublicKey: ECDSAPublicKey? {
        if case .ec(let key) = attestedCertificate.publicKey { return key }
        return nil
    }
}

/// Verifies an App Attest fraud-metric receipt (Apple, "Assessing fraud risk"), each step recorded
/// in the trace when one is given:
///
/// 1. the BER CMS SignedData is parsed (indefinite lengths, chunked content);
/// 2. its payload is read (``AttestationReceipt``);
/// 3. the signature verifies and the signer chains to the trusted root (Apple Root CA - G3) under
///    RFC 5280 and `MarkerExtensionPolicy.appAttestReceipt` at the time given, by default the
///    receipt's creation time;
/// 4. the App ID is the verifier's (always: a verifier is built for one App ID, as
///    ``AttestationVerifier`` and ``AssertionVerifier`` are);
/// 5. when given: the attested key is the stored one, and the receipt is no older than
///    `maximumAge` at `now` (Apple: an attestation receipt no more than minutes old when first
///    stored).
///
/// Variable time (public inputs).
public struct AttestationReceiptVerifier: Sendable {
    /// The roots the signer must chain to (Apple Root CA - G3).
    public let trustedRoots: [Certificate]
    /// The App ID every receipt must name ("TEAMID.bundle.id", field 2).
    public let appID: AppAttestAppID

    /// A verifier of the receipts of `appID`, trusting `trustedRoots` (Apple Root CA - G3 for
    /// Apple's receipts).
    public init(trustedRoots: [Certificate], appID: AppAttestAppID) {
        self.trustedRoots = trustedRoots
        self.appID = appID
    }

    /// Verifies `receipt` (BER bytes) at `time` (default: its creation time) and its App ID;
    /// checks the attested key and the age when their expectations are given.
    public func verify(
        _ receipt: [UInt8], at time: Int64? = nil, attestedPublicKey: ECDSAPublicKey? = nil,
        now: Int64? = nil, maximumAge: Int64? = nil, trace: VerificationTrace? = nil
    ) throws(AppAttestError) -> VerifiedAttestationReceipt {
        func fail(_ clause: String, _ check: String, _ error: AppAttestError) -> AppAttestError { error.recorded(in: trace, clause, check) }
        let signed: CMSSignedData
        do { signed = try CMSSignedData(berEncoded: receipt) } catch {
            throw fail("RFC 5652 §5.1", "parse the CMS SignedData (BER)", AppAttestError(.malformedReceipt, "receipt: \(error)"))
        }
        guard let payload = signed.payload else {
            throw fail(
                "Apple: fraud receipt fields", "read the payload", AppAttestError(.malformedReceipt, "receipt: no encapsulated content"))
        }
        let fields: AttestationReceipt
        do { fields = try AttestationReceipt(payload: payload) } catch {
            throw fail("Apple: fraud receipt fields", "read the payload", error)
        }
        trace?.pass(
            "Apple: fraud receipt fields", "read the payload",
            "type \(fields.receiptType), App ID \(fields.appID), environment \(fields.environment ?? "-"), created \(fields.creationTime)")
        let validationTime = time ?? fields.creationTime.secondsSinceEpoch
        trace?.note(
            "RFC 5280 §6.1.1 (validation time)",
            "\(validationTime) — " + (time != nil ? "given by the caller" : "the receipt's creation time (field 12)"))
        let cms = CMSSignedDataVerifier(
            trustedRoots: trustedRoots,
            policies: [AnyCertificatePolicy(RFC5280Policy()), AnyCertificatePolicy(MarkerExtensionPolicy.appAttestReceipt)])
        let verified: CMSSignedDataVerifier.Verified
        do { verified = try cms.verify(signed, at: validationTime, trace: trace) } catch {
            throw AppAttestError(.receiptNotTrusted, "receipt: \(error.qualifiedCode): \(error.reason)", failures: error.failures)
        }
        guard fields.appID == appID.description else {
            throw fail(
                "Apple: Assessing fraud risk", "App ID",
                AppAttestError(.receiptAppIDMismatch, "receipt: App ID \(fields.appID), expected \(appID)"))
        }
        trace?.pass("Apple: Assessing fraud risk", "App ID", appID.description)
        if let attestedPublicKey {
            guard fields.attestedPublicKey == attestedPublicKey else {
                throw fail(
                    "Apple: Assessing fraud risk", "attested public key equals the stored key",
                    AppAttestError(.receiptKeyMismatch, "receipt: the attested public key is not the stored key"))
            }
            trace?.pass("Apple: Assessing fraud risk", "attested public key equals the stored key", "equal")
        }
        if let maximumAge {
            let now = now ?? validationTime
            let created = fields.creationTime.secondsSinceEpoch
            guard created <= now, now - created <= maximumAge else {
                throw fail(
                    "Apple: Assessing fraud risk", "creation time within \(maximumAge) s of \(now)",
                    AppAttestError(.receiptNotFresh, "receipt: created at \(fields.creationTime), \(now - created) s before \(now)"))
            }
            trace?.pass("Apple: Assessing fraud risk", "creation time within \(maximumAge) s of \(now)", "\(now - created) s old")
        }
        return VerifiedAttestationReceipt(receipt: fields, chain: verified.chain, validationTime: validationTime)
    }
}

/// A receipt that passed ``AttestationReceiptVerifier``.
public struct VerifiedAttestationReceipt: Sendable {
    /// The fields.
    public let receipt: AttestationReceipt
    /// Signer, Apple Application Integration CA, root.
    public let chain: [Certificate]
    /// The time (seconds since the epoch) the chain was validated at.
    public let validationTime: Int64
}
