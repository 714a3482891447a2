import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCBOR
import SigilCore
import SigilKeys
import SigilPKCS7
import SigilX509

/// A PKI shaped like Apple's App Attest PKI, generated in memory: a P-384 root (like the Apple App
/// Attestation Root CA), a P-384 intermediate (like "Apple App Attestation CA 1"), and per key a
/// P-256 credential certificate carrying the nonce extension 1.2.840.113635.100.8.2 — plus builders
/// for authenticator data, attestation objects and assertions (CBOR as apps send them), and a
/// receipt-signing chain (root → integration CA → signer, with the markers Apple's carry) for
/// fraud-metric receipts. Trust `root` (or `receiptRoot`) with the verifiers' test initializers;
/// never Apple's roots. Signing is constant time (the ECDSA signer); the rest is public data.
public struct AppleShapedAttestationPKI: Sendable {
    /// The root's key (P-384).
    public let rootKey: ECDSAPrivateKey
    /// The intermediate's key (P-384).
    public let intermediateKey: ECDSAPrivateKey
    /// The App Attest root.
    public let root: Certificate
    /// The App Attest intermediate.
    public let intermediate: Certificate
    /// The receipt chain's root (like Apple Root CA - G3).
    public let receiptRoot: Certificate
    /// The receipt chain's intermediate (carrying 1.2.840.113635.100.6.2.3).
    public let receiptIntermediate: Certificate
    /// The receipt signer (P-256, carrying 1.2.840.113635.100.12.15).
    public let receiptSigner: Certificate
    /// The receipt signer's key.
    public let receiptSignerKey: ECDSAPrivateKey

    /// The nonce extension's OID.
    public static let nonceOID: ASN1ObjectIdentifier = AppleOIDs.appAttestNonce
    /// The production AAGUID: "appattest" and seven 0x00 bytes.
    public static let productionAAGUID: [UInt8] = Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
    /// The development AAGUID: "appattestdevelop".
    public static let developmentAAGUID: [UInt8] = Array("appattestdevelop".utf8)

    /// A fresh PKI whose CA certificates are valid from `notBefore` to `notAfter` (seconds since 1970).
    public static func generate(notBefore: Int64, notAfter: Int64) throws(X509Error) -> AppleShapedAttestationPKI {
        var system = SystemRandomNumberGenerator()
        return try generate(notBefore: notBefore, notAfter: notAfter, using: &system)
    }

    /// A PKI whose keys come from `generator`: with a seeded generator, the same PKI every time
    /// (signing is deterministic, RFC 6979), as the `appattest` fuzz target needs.
    public static func generate<R: RandomNumberGenerator>(notBefore: Int64, notAfter: Int64, using generator: inout R) throws(X509Error)
        -> AppleShapedAttestationPKI
    {
        let rootKey = ECDSAPrivateKey.generate(curve: .p384, using: &generator)
        let intermediateKey = ECDSAPrivateKey.generate(curve: .p384, using: &generator)
        let rootName = CertificateBuilder.name([
            (AttributeTypeAndValue.commonName, "Sigil Test App Attestation Root CA"),
            (AttributeTypeAndValue.organizationName, "Sigil Test"),
        ])
        let intermediateName = CertificateBuilder.name([
            (AttributeTypeAndValue.commonName, "Sigil Test App Attestation CA 1"), (AttributeTypeAndValue.organizationName, "Sigil Test"),
        ])
        let root = try ca(name: rootName, key: rootKey, issuer: rootName, issuerKey: rootKey, serial: [0x0B, 0xF3], notBefore, notAfter)
        let intermediate = try ca(
            name: intermediateName, key: intermediateKey, issuer: rootName, issuerKey: rootKey, serial: [0x0A, 0xA1], notBefore, notAfter)

        let receiptRootKey = ECDSAPrivateKey.generate(curve: .p384, using: &generator)
        let receiptIntermediateKey = ECDSAPrivateKey.generate(curve: .p384, using: &generator)
        let receiptSignerKey = ECDSAPrivateKey.generate(curve: .p256, using: &generator)
        let receiptRootName = CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Sigil Test Root CA - G3")])
        let receiptIntermediateName = CertificateBuilder.name([
            (AttributeTypeAndValue.commonName, "Sigil Test Application Integration CA 5")
        ])
        let receiptRoot = try ca(
            name: receiptRootName, key: receiptRootKey, issuer: receiptRootName, issuerKey: receiptRootKey, serial: [0x2D], notBefore,
            notAfter)
        let receiptIntermediate = try ca(
            name: receiptIntermediateName, key: receiptIntermediateKey, issuer: receiptRootName, issuerKey: receiptRootKey,
            serial: [0x3E], notBefore, notAfter, marker: AppleOIDs.applicationIntegrationIntermediate)
        let receiptSigner = try CertificateBuilder(
            serialNumber: [0x4F, 0x01], issuer: receiptIntermediateName,
            subject: CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Sigil Test Attestation Fraud Receipt Signing")]),
            notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: receiptSignerKey.publicKey.spkiDER,
            extensions: [
                .basicConstraints(ca: false), .keyUsage([0]),
                .authorityKeyIdentifier(CertificateBuilder.keyIdentifier(receiptIntermediateKey.publicKey)),
                .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(receiptSignerKey.publicKey)),
                .marker(AppleOIDs.appAttestReceiptSigning),
            ]
        ).sign(with: receiptIntermediateKey)
        return AppleShapedAttestationPKI(
            rootKey: rootKey, intermediateKey: intermediateKey, root: root, intermediate: intermediate, receiptRoot: receiptRoot,
            receiptIntermediate: receiptIntermediate, receiptSigner: receiptSigner, receiptSignerKey: receiptSignerKey)
    }

    static func ca(
        name: [UInt8], key: ECDSAPrivateKey, issuer: [UInt8], issuerKey: ECDSAPrivateKey, serial: [UInt8], _ notBefore: Int64,
        _ notAfter: Int64, marker: ASN1ObjectIdentifier? = nil
    ) throws(X509Error) -> Certificate {
        var extensions: [CertificateBuilder.ExtensionValue] = [
            .basicConstraints(ca: true, pathLength: issuer == name ? nil : 0), .keyUsage([5, 6]),
            .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(key.publicKey)),
        ]
        if issuer != name { extensions.append(.authorityKeyIdentifier(CertificateBuilder.keyIdentifier(issuerKey.publicKey))) }
        if let marker { extensions.append(.marker(marker)) }
        return try CertificateBuilder(
            serialNumber: serial, issuer: issuer, subject: name, notBefore: notBefore, notAfter: notAfter,
            subjectPublicKeyInfo: key.publicKey.spkiDER, extensions: extensions
        ).sign(with: issuerKey)
    }

    /// A credential certificate for `key` issued by the intermediate, carrying `nonce` in
    /// 1.2.840.113635.100.8.2 (`SEQUENCE { [1] EXPLICIT OCTET STRING }`), valid from `notBefore` to `notAfter`.
    public func credentialCertificate(for key: ECDSAPublicKey, nonce: [UInt8], notBefore: Int64, notAfter: Int64) throws(X509Error)
        -> Certificate
    {
        var value = DERWriter()
        value.appendSequence { seq in seq.appendExplicit(.contextSpecific(1)) { $0.appendPrimitive(.octetString, content: nonce) } }
        let keyID = SHA256.hash(key.uncompressedRepresentation)
        return try CertificateBuilder(
            serialNumber: [0x01] + Array(keyID.prefix(7)), issuer: intermediate.subject.derBytes,
            subject: CertificateBuilder.name([(AttributeTypeAndValue.commonName, Base16.encode(keyID))]),
            notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: key.spkiDER,
            extensions: [
                .basicConstraints(ca: false), .keyUsage([0]),
                .authorityKeyIdentifier(CertificateBuilder.keyIdentifier(intermediateKey.publicKey)),
                .init(oid: Self.nonceOID, critical: false, value: value.bytes),
            ]
        ).sign(with: intermediateKey)
    }

    /// Authenticator data: rpIdHash ‖ flags ‖ counter (big-endian) ‖ [aaguid ‖ credentialIdLength ‖
    /// credentialId ‖ COSE_Key of `credentialKey`, when given] ‖ [`extensions`, when given].
    public static func authenticatorData(
        appID: String, flags: UInt8, counter: UInt32, aaguid: [UInt8] = productionAAGUID, credentialID: [UInt8]? = nil,
        credentialKey: ECDSAPublicKey? = nil, extensions: CBORValue? = nil
    ) -> [UInt8] {
        var bytes = SHA256.hash(Array(appID.utf8)) + [flags] + (0..<4).map { UInt8(truncatingIfNeeded: counter >> (24 - 8 * UInt32($0))) }
        if let credentialKey {
            let id = credentialID ?? SHA256.hash(credentialKey.uncompressedRepresentation)
            bytes += aaguid + [UInt8(truncatingIfNeeded: id.count >> 8), UInt8(truncatingIfNeeded: id.count)] + id
            bytes += CBOR.encode(
                .map(pairs: [
                    (.unsigned(1), .unsigned(2)), (.unsigned(3), .integer(-7)), (.integer(-1), .unsigned(1)),
                    (.integer(-2), .bytes(credentialKey.x)), (.integer(-3), .bytes(credentialKey.y)),
                ]))
        }
        if let extensions { bytes += CBOR.encode(extensions) }
        return bytes
    }

    /// Apple's authenticator-data extensions: validation category (4 bytes, little-endian) and bundle version.
    public static func appleExtensions(category: UInt32, bundleVersion: String) -> CBORValue {
        .map(pairs: [
            (.text("apple_bundle_version_01"), .text(bundleVersion)),
            (.text("apple_validation_category_01"), .bytes((0..<4).map { UInt8(truncatingIfNeeded: category >> (8 * UInt32($0))) })),
        ])
    }

    /// The flags byte of every real device's assertion seen (iOS 14 to 26): 0x40, AT set though no
    /// attested credential data follows.
    public static let realDeviceAssertionFlags: UInt8 = 0x40

    /// The attestation object `{fmt, attStmt: {x5c, receipt}, authData}` as CBOR.
    public static func attestationObject(
        authenticatorData: [UInt8], certificates: [Certificate], receipt: [UInt8], fmt: String = "apple-appattest"
    ) -> [UInt8] {
        CBOR.encode(
            .map(pairs: [
                (.text("fmt"), .text(fmt)),
                (
                    .text("attStmt"),
                    .map(pairs: [(.text("x5c"), .array(certificates.map { .bytes($0.derBytes) })), (.text("receipt"), .bytes(receipt))])
                ),
                (.text("authData"), .bytes(authenticatorData)),
            ]))
    }

    /// A complete attestation of `credentialKey` for `appID` over `clientDataHash`: authenticator
    /// data with AT set, the credential certificate with the right nonce (or `nonceOverride`), x5c
    /// = [credential certificate, intermediate]. The arguments change one fact at a time for
    /// negative tests.
    public func attestation(
        credentialKey: ECDSAPublicKey, appID: String, clientDataHash: [UInt8], notBefore: Int64, notAfter: Int64,
        aaguid: [UInt8] = productionAAGUID, counter: UInt32 = 0, credentialID: [UInt8]? = nil, extensions: CBORValue? = nil,
        nonceOverride: [UInt8]? = nil, receipt: [UInt8] = []
    ) throws(X509Error) -> [UInt8] {
        let authData = Self.authenticatorData(
            appID: appID, flags: 0x40, counter: counter, aaguid: aaguid, credentialID: credentialID, credentialKey: credentialKey,
            extensions: extensions)
        let certificate = try credentialCertificate(
            for: credentialKey, nonce: nonceOverride ?? SHA256.hash(authData + clientDataHash), notBefore: notBefore, notAfter: notAfter)
        return Self.attestationObject(authenticatorData: authData, certificates: [certificate, intermediate], receipt: receipt)
    }

    /// An assertion `{signature, authenticatorData}` by `key` for `appID` with `counter` over
    /// `clientDataHash`: the signature is ECDSA P-256 over SHA-256(authenticatorData ‖ clientDataHash).
    /// The flags are those real devices write (0x40: AT set, with no credential data after the 37
    /// bytes) unless `flags` says otherwise; `extensions`, when given, follow the 37 bytes.
    public static func assertion(
        key: ECDSAPrivateKey, appID: String, counter: UInt32, clientDataHash: [UInt8], extensions: CBORValue? = nil,
        flags: UInt8 = realDeviceAssertionFlags
    ) -> [UInt8] {
        let authData = authenticatorData(appID: appID, flags: flags, counter: counter, extensions: extensions)
        let nonce = SHA256.hash(authData + clientDataHash)
        return assertionObject(authenticatorData: authData, signature: key.signature(for: nonce, hash: .sha256).derRepresentation)
    }

    /// The assertion map `{signature, authenticatorData}` as CBOR.
    public static func assertionObject(authenticatorData: [UInt8], signature: [UInt8]) -> [UInt8] {
        CBOR.encode(.map(pairs: [(.text("signature"), .bytes(signature)), (.text("authenticatorData"), .bytes(authenticatorData))]))
    }

    /// A fraud-metric receipt signed by the receipt signer: CMS SignedData over the payload
    /// `SET OF SEQUENCE { type, version 1, raw value }` with the fields given (field number → value).
    public func receipt(fields: [(Int, [UInt8])]) throws(PKCS7Error) -> [UInt8] {
        var payload = DERWriter()
        payload.appendConstructed(.set) { set in
            for (type, value) in fields {
                set.appendSequence { seq in
                    seq.append(ASN1Integer(type))
                    seq.append(ASN1Integer(1))
                    seq.appendPrimitive(.octetString, content: value)
                }
            }
        }
        return try AppReceiptBuilder.signedData(
            content: payload.bytes, signer: receiptSigner, signerKey: receiptSignerKey, certificates: [receiptSigner, receiptIntermediate])
    }
}
