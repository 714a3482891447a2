import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// Verifies an app receipt, the whole job (Apple, "Validating receipts on the device"):
///
/// 1. the CMS SignedData is parsed once (BER, as Apple and Xcode write it; base64 text accepted);
/// 2. its payload is read as the receipt's fields (``AppReceipt``);
/// 3. the validation time is the receipt's creation date unless the caller gives one — Apple's
///    receipts are re-signed on every refresh, and the signing certificate of an older receipt has
///    often expired since, so "now" would refuse every receipt older than its signer;
/// 4. the signer is found by its SignerIdentifier and its signature checked (RFC 5652 §5.4–5.6);
/// 5. the signer's chain is validated to one of the trusted roots under RFC 5280 and, by default,
///    Apple's receipt profile (`MarkerExtensionPolicy.appleReceipt`: signer carrying
///    1.2.840.113635.100.6.11.1 under a WWDR intermediate carrying 1.2.840.113635.100.6.2.1) —
///    without it, any certificate Apple issued to anyone under the same root would sign receipts;
/// 6. with a device GUID, SHA-1(GUID ‖ opaque value ‖ bundle id) must equal the receipt's hash.
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
        /// signs receipts — for Xcode's StoreKit-testing receipts, signed by Xcode's local
        /// self-signed certificate, never for receipts from the App Store.
        case anyCertificateUnderTrustedRoots
    }

    /// The roots a receipt signer must chain to (Apple Root CA for App Store receipts).
    public let trustedRoots: [Certificate]
    /// Apple's receipt signer (the default), or the named relaxation.
    public let signerRequirement: SignerRequirement
    /// RSA keys smaller than this verify nothing (Apple's receipt signers are RSA-2048).
    public let minimumRSABits: Int

    /// A verifier trusting `trustedRoots` (Apple Root CA for App Store receipts) that requires
    /// Apple's receipt signer unless `signerRequirement` names the relaxation.
    public init(
        trustedRoots: [Certificate], signerRequirement: SignerRequirement = .appleReceiptSigner,
        minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits
    ) {
        self.trustedRoots = trustedRoots
        self.signerRequirement = signerRequirement
        self.minimumRSABits = minimumRSABits
    }

    /// The certificate policies the signer's chain is validated under.
    public var policies: [any CertificatePolicy] {
        switch signerRequirement {
        case .appleReceiptSigner: [RFC5280Policy(), MarkerExtensionPolicy.appleReceipt]
        case .anyCertificateUnderTrustedRoots: [RFC5280Policy()]
        }
    }

    /// Verifies `receipt` — DER/BER bytes, or their base64 text as apps send it (line breaks
    /// allowed) — at `time` (default: its creation date), checking the device hash when
    /// `deviceGUID` is given.
    public func verify(
        _ receipt: [UInt8], at time: Int64? = nil, deviceGUID: [UInt8]? = nil, trace: VerificationTrace? = nil
    ) throws(PKCS7Error) -> VerifiedAppReceipt {
        // 1. The CMS SignedData.
        let signed: SignedData
        do { signed = try SignedData(berEncoded: AppReceiptVerifier.binary(receipt)) } catch {
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
            throw PKCS7Error(.notAReceipt, "the SignedData has no content")
        }
        let fields: AppReceipt
        do { fields = try AppReceipt(payload: payload) } catch {
            trace?.fail("Apple: receipt fields (SET OF ReceiptAttribute, BER)", "read the payload", error.reason)
            throw PKCS7Error(.notAReceipt, "the content is not a receipt payload: \(error.reason)")
        }
        trace?.pass(
            "Apple: receipt fields (SET OF ReceiptAttribute, BER)", "read the payload",
            "type \(fields.receiptType ?? "-"), bundle \(fields.bundleID ?? "-"), version \(fields.appVersion ?? "-"), "
                + "\(fields.inAppPurchases.count) in-app record(s)")
        // 3. The validation time.
        guard let validationTime = time ?? fields.creationDate else {
            trace?.fail("RFC 5280 §6.1.1 (validation time)", "the receipt's creation date", "absent, and no time given")
            throw PKCS7Error(.notAReceipt, "the receipt has no creation date (field 12) to validate at; give a time")
        }
        trace?.note(
            "RFC 5280 §6.1.1 (validation time)",
            "\(validationTime) — " + (time != nil ? "given by the caller" : "the receipt's creation date (field 12)"))
        // 4–5. Signer, signature, chain.
        let cms = CMSSignedDataVerifier(trustedRoots: trustedRoots, policies: policies, minimumRSABits: minimumRSABits)
        let verified = try cms.verify(signed, at: validationTime, trace: trace)
        // 6. The device.
        var deviceMatches: Bool?
        if let deviceGUID {
            let matches = fields.matchesDevice(guid: deviceGUID)
            deviceMatches = matches
            guard matches else {
                trace?.fail(
                    "Apple: receipt validation on the device", "SHA-1(GUID ‖ opaque value ‖ bundle id) equals field 5",
                    "does not match: another device, or a copied receipt")
                throw PKCS7Error(.deviceMismatch, "the receipt's SHA-1 hash does not match this device's GUID")
            }
            trace?.pass(
                "Apple: receipt validation on the device", "SHA-1(GUID ‖ opaque value ‖ bundle id) equals field 5", "matches this device")
        }
        return VerifiedAppReceipt(
            signedData: signed, receipt: fields, chain: verified.chain, validationTime: validationTime, deviceMatches: deviceMatches)
    }

    /// The receipt's bytes: DER/BER as given, or decoded from base64 text (white space ignored).
    static func binary(_ bytes: [UInt8]) throws(PKCS7Error) -> [UInt8] {
        let compact = bytes.filter { ![0x0A, 0x0D, 0x20, 0x09].contains($0) }
        if compact.first == 0x30 || compact.isEmpty { return bytes }
        do { return try Base64.decode(compact, alphabet: .standard, padding: .optional) } catch {
            throw PKCS7Error(.malformed, "the receipt is neither DER/BER nor base64: \(error)")
        }
    }
}

/// A receipt that passed ``AppReceiptVerifier``.
public struct VerifiedAppReceipt: Sendable {
    /// The CMS message as parsed.
    public let signedData: SignedData
    /// The receipt's fields.
    public let receipt: AppReceipt
    /// Signer, intermediate(s), trusted root.
    public let chain: [Certificate]
    /// The time (seconds since the epoch) the chain was validated at.
    public let validationTime: Int64
    /// Whether the device hash matched (nil when no GUID was given).
    public let deviceMatches: Bool?
}
