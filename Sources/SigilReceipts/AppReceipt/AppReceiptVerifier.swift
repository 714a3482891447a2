import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCore
import SigilKeys
import SigilPKCS7
import SigilX509

/// Verifies an app receipt, the whole job (Apple, "Validating receipts on the device"):
///
/// 1. the CMS SignedData is parsed once (BER, as Apple and Xcode write it; base64 text accepted);
/// 2. its payload is read as the receipt's fields (``AppReceipt``);
/// 3. the validation time is the receipt's creation date unless the caller gives one — Apple's
///    receipts are re-signed on every refresh, and the signing certificate of an older receipt has
///    often expired since, so "now" would refuse every receipt older than its signer;
/// 4. the signer is found by its SignerIdentifier and its signature checked (RFC 5652 §5.4–5.6);
/// 5. the signer's chain is validated to one of the trusted roots under RFC 5280 (every profile
///    rule enforced but the named ``rfc5280Relaxations``) and, by default, Apple's receipt
///    profile (`MarkerExtensionPolicy.appleReceipt`: signer carrying 1.2.840.113635.100.6.11.1
///    under a WWDR intermediate carrying 1.2.840.113635.100.6.2.1) — without it, any certificate
///    Apple issued to anyone under the same root would sign receipts; an Xcode verifier
///    (``init(xcode:identity:minimumRSABits:)``) instead requires the signer to be Xcode's
///    StoreKit certificate itself;
/// 6. the receipt type (field 0) must name one of the accepted ``environments``;
/// 7. the bundle id (field 2) must be the expected one, unless the verifier is report-only by
///    name (``ReceiptIdentityCheck/reportOnly``);
/// 8. with a device GUID, SHA-1(GUID ‖ opaque value ‖ bundle id) must equal the receipt's hash —
///    the *expected* bundle id when it is enforced, so another app's receipt from the same device
///    never matches.
///
/// Every step is recorded, in this order, in the trace when one is given. Variable time (public
/// inputs); the device-hash comparison is constant time.
public struct AppReceiptVerifier: Sendable {
    /// What the signer's certificate must be.
    public enum SignerRequirement: Sendable, Hashable {
        /// Apple's receipt profile (the default): exactly signer → WWDR intermediate → trusted
        /// root, with Apple's marker OIDs.
        case appleReceiptSigner
        /// A named relaxation: any certificate that chains to the trusted roots under RFC 5280
        /// signs receipts — for receipts of test PKIs, never for receipts from the App Store.
        /// (Xcode's StoreKit-testing receipts have their own verifier:
        /// ``AppReceiptVerifier/init(xcode:identity:minimumRSABits:)``.)
        case anyCertificateUnderTrustedRoots
    }

    /// The roots a receipt signer must chain to (Apple Inc. Root for App Store receipts; for an
    /// Xcode verifier, the certificate given, or none when it trusts the one the receipt carries).
    public let trustedRoots: [Certificate]
    /// Apple's receipt signer (the default), or the named relaxation.
    public let signerRequirement: SignerRequirement
    /// For an Xcode verifier (``init(xcode:identity:minimumRSABits:)``), which certificate signs
    /// the receipts; nil for a verifier of App Store or test-PKI receipts, which trusts ``trustedRoots``.
    public let xcodeCertificate: XcodeCertificate?
    /// The bundle id enforced, or by name only reported.
    public let identityCheck: ReceiptIdentityCheck
    /// The environments a receipt's type may name (always enforced).
    public let environments: Set<ReceiptEnvironment>
    /// RFC 5280 profile rules not enforced on the signer's chain (none by default; an Xcode
    /// verifier applies `.missingKeyIdentifiers`, the one rule Xcode's certificate breaks).
    public let rfc5280Relaxations: Set<RFC5280Policy.Relaxation>
    /// RSA keys smaller than this verify nothing (Apple's receipt signers are RSA-2048).
    public let minimumRSABits: Int

    /// A verifier of the receipts of `bundleId` from `environments`, trusting `trustedRoots`
    /// (Apple Inc. Root for App Store receipts) and requiring Apple's receipt signer unless
    /// `signerRequirement` names the relaxation; `rfc5280Relaxations` names RFC 5280 profile
    /// rules not enforced on the chain (none by default; test PKIs without key identifiers need
    /// `.missingKeyIdentifiers`).
    public init(
        trustedRoots: [Certificate], bundleId: String, environments: Set<ReceiptEnvironment>,
        signerRequirement: SignerRequirement = .appleReceiptSigner, rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = [],
        minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits
    ) throws(ReceiptError) {
        try self.init(
            trustedRoots: trustedRoots, identity: .enforce(bundleId: bundleId), environments: environments,
            signerRequirement: signerRequirement, rfc5280Relaxations: rfc5280Relaxations, minimumRSABits: minimumRSABits)
    }

    /// A verifier with the identity check `identity` — enforced, or by name report-only — of
    /// receipts from `environments` (always enforced; at least one), trusting `trustedRoots`
    /// under `signerRequirement` and every RFC 5280 profile rule but `rfc5280Relaxations`.
    public init(
        trustedRoots: [Certificate], identity: ReceiptIdentityCheck, environments: Set<ReceiptEnvironment>,
        signerRequirement: SignerRequirement = .appleReceiptSigner, rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = [],
        minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits
    ) throws(ReceiptError) {
        guard !environments.isEmpty else {
            throw ReceiptError(.invalidConfiguration, "no accepted environment: name the receipt environments to accept")
        }
        if case .enforce(let bundleId) = identity, bundleId.isEmpty {
            throw ReceiptError(.invalidConfiguration, "the expected bundle id is empty (use .reportOnly to check none, by name)")
        }
        self.trustedRoots = trustedRoots
        self.signerRequirement = signerRequirement
        self.xcodeCertificate = nil
        self.identityCheck = identity
        self.environments = environments
        self.rfc5280Relaxations = rfc5280Relaxations
        self.minimumRSABits = minimumRSABits
    }

    /// A verifier of Xcode's StoreKit-testing receipts — receipt type `Xcode` only, never a
    /// receipt from the App Store — signed by Xcode's certificate as `xcode` names it: the one
    /// the caller gives (saved from Xcode's StoreKit configuration), or by name the one the
    /// receipt carries. Xcode's certificate has no subjectKeyIdentifier, so the chain is
    /// validated with the named relaxation `.missingKeyIdentifiers` (RFC 5280 §4.2.1.2) and no
    /// other; `identity` as for App Store receipts.
    public init(
        xcode: XcodeCertificate, identity: ReceiptIdentityCheck, minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits
    ) {
        switch xcode {
        case .given(let certificate): trustedRoots = [certificate]
        case .carriedByTheData: trustedRoots = []
        }
        signerRequirement = .anyCertificateUnderTrustedRoots
        xcodeCertificate = xcode
        identityCheck = identity
        environments = [.xcode]
        rfc5280Relaxations = [.missingKeyIdentifiers]
        self.minimumRSABits = minimumRSABits
    }

    /// The certificate policies the signer's chain is validated under, as the verifier applies
    /// them (one concrete type: no existential on the verification path).
    public var erasedPolicies: [AnyCertificatePolicy] {
        let rfc5280 = AnyCertificatePolicy(RFC5280Policy(relaxations: rfc5280Relaxations))
        if xcodeCertificate != nil { return [rfc5280] }
        switch signerRequirement {
        case .appleReceiptSigner: return [rfc5280, AnyCertificatePolicy(MarkerExtensionPolicy.appleReceipt)]
        case .anyCertificateUnderTrustedRoots: return [rfc5280]
        }
    }

    #if !hasFeature(Embedded)
    /// The certificate policies the signer's chain is validated under.
    public var policies: [any CertificatePolicy] { erasedPolicies.map { $0.given } }
    #endif

    /// Verifies `receipt` — DER/BER bytes, or their base64 text as apps send it (line breaks
    /// allowed) — at `time` (default: its creation date), then its environment and bundle id,
    /// checking the device hash when `deviceGUID` is given.
    public func verify(
        _ receipt: [UInt8], at time: Int64? = nil, deviceGUID: [UInt8]? = nil, trace: VerificationTrace? = nil
    ) throws(ReceiptError) -> VerifiedAppReceipt {
        let authentic = try authenticate(receipt, at: time, trace: trace)
        let fields = authentic.receipt
        // 6. The environment.
        let environment = try checkEnvironment(fields, trace: trace)
        // 7. The bundle id.
        try checkBundleID(fields, trace: trace)
        // 8. The device.
        var deviceMatches: Bool?
        if let deviceGUID {
            let bundle = identityCheck.bundleId
            let matches = bundle.map { fields.matchesDevice(guid: deviceGUID, bundleID: $0) } ?? fields.matchesDevice(guid: deviceGUID)
            deviceMatches = matches
            let check =
                "SHA-1(GUID ‖ opaque value ‖ bundle id) equals field 5, with "
                + (bundle.map { "the expected bundle id \"\($0)\"" } ?? "the receipt's own bundle id (report-only)")
            guard matches else {
                trace?.fail("Apple: receipt validation on the device", check, "does not match: another device, or a copied receipt")
                throw ReceiptError(.deviceMismatch, "the receipt's SHA-1 hash does not match this device's GUID")
            }
            trace?.pass("Apple: receipt validation on the device", check, "matches this device")
        }
        return VerifiedAppReceipt(
            signedData: authentic.signedData, receipt: fields, chain: authentic.chain, validationTime: authentic.validationTime,
            deviceMatches: deviceMatches,
            identity: ReceiptIdentityReport(bundleId: fields.bundleID, environment: environment, enforced: identityCheck.isEnforced))
    }

    /// A receipt whose signature and signer passed steps 1–5.
    struct Authentic {
        let signedData: CMSSignedData
        let receipt: AppReceipt
        let chain: [Certificate]
        let validationTime: Int64
    }

    /// Steps 1–5: the message, its fields, the time, the signer and its chain.
    func authenticate(_ receipt: [UInt8], at time: Int64?, trace: VerificationTrace?) throws(ReceiptError) -> Authentic {
        // 1. The CMS SignedData.
        let signed: CMSSignedData
        do { signed = try AppReceiptVerifier.signedData(receipt) } catch {
            trace?.fail("RFC 5652 §5.1", "parse the CMS SignedData (BER)", error.description)
            throw error
        }
        trace?.pass(
            "RFC 5652 §5.1", "parse the CMS SignedData (BER)",
            "version \(signed.version), eContentType \(signed.contentType), \(signed.certificates.count) certificate(s), "
                + "\(signed.signerInfos.count) SignerInfo(s)")
        // 2. The receipt's fields.
        guard let payload = signed.payload else {
            trace?.fail("Apple: receipt fields", "the receipt has content", "no encapsulated content")
            throw ReceiptError(.notAReceipt, "the SignedData has no content")
        }
        let fields: AppReceipt
        do { fields = try AppReceipt(payload: payload) } catch {
            trace?.fail("Apple: receipt fields (SET OF ReceiptAttribute, BER)", "read the payload", error.reason)
            throw ReceiptError(.notAReceipt, "the content is not a receipt payload: \(error.reason)")
        }
        trace?.pass(
            "Apple: receipt fields (SET OF ReceiptAttribute, BER)", "read the payload",
            "type \(fields.receiptType ?? "-"), bundle \(fields.bundleID ?? "-"), version \(fields.appVersion ?? "-"), "
                + "\(fields.inAppPurchases.count) in-app record(s)")
        // 3. The validation time.
        guard let validationTime = time ?? fields.creationDate else {
            trace?.fail("RFC 5280 §6.1.1 (validation time)", "the receipt's creation date", "absent, and no time given")
            throw ReceiptError(.notAReceipt, "the receipt has no creation date (field 12) to validate at; give a time")
        }
        trace?.note(
            "RFC 5280 §6.1.1 (validation time)",
            "\(validationTime) — " + (time != nil ? "given by the caller" : "the receipt's creation date (field 12)"))
        // 4–5. Signer, signature, chain.
        var roots = trustedRoots
        if let xcodeCertificate {
            if case .carriedByTheData = xcodeCertificate, let info = signed.signerInfos.first,
                let carried = signed.certificates.first(where: info.identifies)
            {
                roots = [carried]
            }
            trace?.note(
                "Xcode StoreKit testing",
                "the signer must be Xcode's self-signed StoreKit certificate: "
                    + (xcodeCertificate == .carriedByTheData
                        ? "the one the receipt carries (named choice: integrity only, anyone can make such a receipt)"
                        : "the one the caller gave")
                    + "; RFC 5280 relaxation missingKeyIdentifiers (§4.2.1.2)")
        }
        let cms = CMSSignedDataVerifier(trustedRoots: roots, policies: erasedPolicies, minimumRSABits: minimumRSABits)
        let verified: CMSSignedDataVerifier.Verified
        do { verified = try cms.verify(signed, at: validationTime, trace: trace) } catch { throw ReceiptError(error) }
        if xcodeCertificate != nil, verified.chain.count != 1 {
            let reason =
                "the signer \(verified.signer.subject) is not Xcode's StoreKit certificate itself (a chain of \(verified.chain.count))"
            trace?.fail("Xcode StoreKit testing", "the signer is Xcode's certificate", reason)
            throw ReceiptError(.untrustedSigner, reason)
        }
        return Authentic(signedData: signed, receipt: fields, chain: verified.chain, validationTime: validationTime)
    }

    /// Step 6: the receipt type names one of the accepted environments.
    func checkEnvironment(_ fields: AppReceipt, trace: VerificationTrace?) throws(ReceiptError) -> ReceiptEnvironment {
        let accepted = ReceiptEnvironment.allCases.filter(environments.contains).map { $0.rawValue }.joined(separator: ", ")
        let check = "the receipt type names an accepted environment (\(accepted))"
        guard let environment = ReceiptEnvironment(receiptType: fields.receiptType) else {
            let reason =
                "the receipt type \(fields.receiptType.map { "\"\($0)\"" } ?? "(field 0) is absent and") names no known environment"
            trace?.fail("Apple: receipt type (field 0)", check, reason)
            throw ReceiptError(.invalidEnvironment, reason)
        }
        guard environments.contains(environment) else {
            let reason = "the receipt type \"\(fields.receiptType ?? "")\" is \(environment.rawValue), not accepted (\(accepted))"
            trace?.fail("Apple: receipt type (field 0)", check, reason)
            throw ReceiptError(.invalidEnvironment, reason)
        }
        trace?.pass("Apple: receipt type (field 0)", check, "\(fields.receiptType ?? "") — \(environment.rawValue)")
        return environment
    }

    /// Step 7: the bundle id is the expected one (unless report-only).
    func checkBundleID(_ fields: AppReceipt, trace: VerificationTrace?) throws(ReceiptError) {
        guard let expected = identityCheck.bundleId else {
            trace?.note("Apple: bundle id (field 2)", "report-only: \(fields.bundleID ?? "absent"), not checked")
            return
        }
        let check = "the bundle id is \"\(expected)\""
        guard fields.bundleID == expected else {
            let reason = "the receipt's bundle id \(fields.bundleID.map { "\"\($0)\"" } ?? "absent") (expected \"\(expected)\")"
            trace?.fail("Apple: bundle id (field 2)", check, reason)
            throw ReceiptError(.invalidAppIdentifier, reason)
        }
        trace?.pass("Apple: bundle id (field 2)", check, "equal")
    }

    /// The receipt's CMS SignedData, from DER/BER bytes or their base64 text.
    static func signedData(_ receipt: [UInt8]) throws(ReceiptError) -> CMSSignedData {
        let bytes = try binary(receipt)
        do { return try CMSSignedData(berEncoded: bytes) } catch { throw ReceiptError(error) }
    }

    /// The receipt's bytes: DER/BER as given, or decoded from base64 text (white space ignored).
    static func binary(_ bytes: [UInt8]) throws(ReceiptError) -> [UInt8] {
        let compact = Base64.removingWhiteSpace(bytes)
        if compact.first == 0x30 || compact.isEmpty { return bytes }
        do { return try Base64.decode(compact, alphabet: .standard, padding: .optional) } catch {
            throw ReceiptError(.malformed, "the receipt is neither DER/BER nor base64: \(error)")
        }
    }
}

/// A receipt that passed ``AppReceiptVerifier``.
public struct VerifiedAppReceipt: Sendable {
    /// The CMS message as parsed.
    public let signedData: CMSSignedData
    /// The receipt's fields.
    public let receipt: AppReceipt
    /// Signer, intermediate(s), trusted root.
    public let chain: [Certificate]
    /// The time (seconds since the epoch) the chain was validated at.
    public let validationTime: Int64
    /// Whether the device hash matched (nil when no GUID was given).
    public let deviceMatches: Bool?
    /// The bundle id and environment the receipt carries, and whether the bundle id was enforced.
    public let identity: ReceiptIdentityReport
}
