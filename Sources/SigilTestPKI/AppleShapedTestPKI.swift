import SigilASN1
import SigilAppStore
import SigilApplePKI
import SigilCore
import SigilJOSE
import SigilKeys
import SigilX509

/// A PKI shaped like Apple's signed-data PKI, generated in memory: a P-384 root, a P-384
/// intermediate carrying Apple's WWDR marker (1.2.840.113635.100.6.2.1), and a P-256 leaf carrying
/// the App Store receipt-signing marker (1.2.840.113635.100.6.11.1). It passes the same
/// `MarkerExtensionPolicy.appleSignedData` as Apple's real chain, so integration tests, `sigil demo` and benchmarks
/// can sign realistic App Store data without Apple's keys. Trust `root` (never Apple's roots) when
/// verifying what it signs.
public struct AppleShapedTestPKI: Sendable {
    /// The root's P-384 key.
    public let rootKey: ECDSAPrivateKey
    /// The intermediate's P-384 key.
    public let intermediateKey: ECDSAPrivateKey
    /// The leaf's P-256 key: it signs the JWS payloads and receipts.
    public let leafKey: ECDSAPrivateKey
    /// The self-signed root: trust this one.
    public let root: Certificate
    /// The intermediate, with the WWDR marker.
    public let intermediate: Certificate
    /// The leaf, with the receipt-signing marker.
    public let leaf: Certificate

    /// A fresh PKI whose three certificates are valid from `notBefore` to `notAfter` (seconds
    /// since 1970). `ocspResponder`, when given, goes in the leaf's and intermediate's
    /// authorityInfoAccess. With `keyIdentifiers` false no certificate carries a
    /// subjectKeyIdentifier or an authorityKeyIdentifier, as some test PKIs (Apple's App Store
    /// Server Library's, other libraries' receipt fixtures) are made: RFC 5280 §4.2.1.1–2 refuses
    /// them unless the relaxation `missingKeyIdentifiers` is named.
    public static func generate(
        notBefore: Int64, notAfter: Int64, ocspResponder: String? = nil, keyIdentifiers: Bool = true
    ) throws(X509Error) -> AppleShapedTestPKI {
        let rootKey = ECDSAPrivateKey.generate(curve: .p384)
        let intermediateKey = ECDSAPrivateKey.generate(curve: .p384)
        let leafKey = ECDSAPrivateKey.generate(curve: .p256)
        let rootName = CertificateBuilder.name([
            (AttributeTypeAndValue.commonName, "Sigil Test Root CA - G3"),
            (AttributeTypeAndValue.organizationalUnitName, "Sigil Test Certification Authority"),
            (AttributeTypeAndValue.organizationName, "Sigil Test"), (AttributeTypeAndValue.countryName, "US"),
        ])
        let intermediateName = CertificateBuilder.name([
            (AttributeTypeAndValue.commonName, "Sigil Test Worldwide Developer Relations CA"),
            (AttributeTypeAndValue.organizationalUnitName, "G6"),
            (AttributeTypeAndValue.organizationName, "Sigil Test"), (AttributeTypeAndValue.countryName, "US"),
        ])
        let leafName = CertificateBuilder.name([
            (AttributeTypeAndValue.commonName, "Sigil Test StoreKit Signing"),
            (AttributeTypeAndValue.organizationName, "Sigil Test"), (AttributeTypeAndValue.countryName, "US"),
        ])
        let rootID = CertificateBuilder.keyIdentifier(rootKey.publicKey)
        let intermediateID = CertificateBuilder.keyIdentifier(intermediateKey.publicKey)
        let aia = ocspResponder.map { [CertificateBuilder.ExtensionValue.ocspResponder($0)] } ?? []
        // Without key identifiers: every subjectKeyIdentifier and authorityKeyIdentifier left out.
        func kept(_ extensions: [CertificateBuilder.ExtensionValue]) -> [CertificateBuilder.ExtensionValue] {
            keyIdentifiers
                ? extensions
                : extensions.filter { $0.oid != X509OIDs.subjectKeyIdentifier && $0.oid != X509OIDs.authorityKeyIdentifier }
        }
        let root = try CertificateBuilder(
            serialNumber: [0x01, 0x5E], issuer: rootName, subject: rootName, notBefore: notBefore, notAfter: notAfter,
            subjectPublicKeyInfo: rootKey.publicKey.spkiDER,
            extensions: kept([.subjectKeyIdentifier(rootID), .basicConstraints(ca: true), .keyUsage([5, 6])])
        ).sign(with: rootKey)
        let intermediate = try CertificateBuilder(
            serialNumber: [0x7A, 0x01], issuer: rootName, subject: intermediateName, notBefore: notBefore, notAfter: notAfter,
            subjectPublicKeyInfo: intermediateKey.publicKey.spkiDER,
            extensions: kept(
                [
                    .basicConstraints(ca: true, pathLength: 0), .authorityKeyIdentifier(rootID), .subjectKeyIdentifier(intermediateID),
                    .keyUsage([5, 6]), .marker(AppleOIDs.wwdrIntermediate),
                ] + aia)
        ).sign(with: rootKey)
        let leaf = try CertificateBuilder(
            serialNumber: [0x60, 0x0D, 0xF0, 0x0D], issuer: intermediateName, subject: leafName, notBefore: notBefore, notAfter: notAfter,
            subjectPublicKeyInfo: leafKey.publicKey.spkiDER,
            extensions: kept(
                [
                    .basicConstraints(ca: false), .authorityKeyIdentifier(intermediateID),
                    .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(leafKey.publicKey)), .keyUsage([0]),
                    .marker(AppleOIDs.appStoreReceiptSigning),
                ] + aia)
        ).sign(with: intermediateKey)
        return AppleShapedTestPKI(
            rootKey: rootKey, intermediateKey: intermediateKey, leafKey: leafKey, root: root,
            intermediate: intermediate, leaf: leaf)
    }

    /// An ES256 JWS over `payload` (JSON bytes) with `x5c` [leaf, intermediate, root], as Apple
    /// signs transactions, renewal info, notifications and app transactions.
    public func signedData(payload: [UInt8]) throws(JOSEError) -> String {
        let chain = [leaf, intermediate, root].map { JSONValue.string(Base64.encode($0.derBytes)) }
        return try JWS.sign(header: .object([("alg", .string("ES256")), ("x5c", .array(chain))]), payload: payload, key: leafKey)
    }

    /// The intermediate re-issued by the root without Apple's WWDR marker (same name and key, so
    /// the leaf it signed still chains through it): for tests of the Apple profiles' refusals.
    public func intermediateWithoutMarker(notBefore: Int64, notAfter: Int64) throws(X509Error) -> Certificate {
        try CertificateBuilder(
            serialNumber: [0x7A, 0x7F], issuer: root.subject.derBytes, subject: intermediate.subject.derBytes,
            notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: intermediateKey.publicKey.spkiDER,
            extensions: [
                .basicConstraints(ca: true, pathLength: 0), .keyUsage([5, 6]),
                .authorityKeyIdentifier(CertificateBuilder.keyIdentifier(rootKey.publicKey)),
                .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(intermediateKey.publicKey)),
            ]
        ).sign(with: rootKey)
    }

    /// The same PKI with its signing leaf re-issued by the intermediate for `notBefore` …
    /// `notAfter` (same name, key, serial number and marker; no OCSP responder address): a leaf
    /// whose life is shorter than the intermediate's, as Apple's are — for tests of data signed
    /// before the leaf expired.
    public func withLeaf(notBefore: Int64, notAfter: Int64) throws(X509Error) -> AppleShapedTestPKI {
        let leaf = try CertificateBuilder(
            serialNumber: self.leaf.serialNumber, issuer: intermediate.subject.derBytes, subject: self.leaf.subject.derBytes,
            notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: leafKey.publicKey.spkiDER,
            extensions: [
                .basicConstraints(ca: false), .authorityKeyIdentifier(CertificateBuilder.keyIdentifier(intermediateKey.publicKey)),
                .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(leafKey.publicKey)), .keyUsage([0]),
                .marker(AppleOIDs.appStoreReceiptSigning),
            ]
        ).sign(with: intermediateKey)
        return AppleShapedTestPKI(
            rootKey: rootKey, intermediateKey: intermediateKey, leafKey: leafKey, root: root, intermediate: intermediate, leaf: leaf)
    }

    /// A P-256 leaf the intermediate issues under `commonName` without Apple's signing marker
    /// (1.2.840.113635.100.6.11.1) — a certificate Apple issued "to anyone" — and its key.
    public func unmarkedLeaf(commonName: String, notBefore: Int64, notAfter: Int64) throws(X509Error) -> (
        certificate: Certificate, key: ECDSAPrivateKey
    ) {
        let key = ECDSAPrivateKey.generate(curve: .p256)
        let certificate = try CertificateBuilder(
            serialNumber: [0x0F, 0xAC, 0xE0], issuer: intermediate.subject.derBytes,
            subject: CertificateBuilder.name([(AttributeTypeAndValue.commonName, commonName)]),
            notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: key.publicKey.spkiDER,
            extensions: [
                .basicConstraints(ca: false), .keyUsage([0]),
                .authorityKeyIdentifier(CertificateBuilder.keyIdentifier(intermediateKey.publicKey)),
                .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(key.publicKey)),
            ]
        ).sign(with: intermediateKey)
        return (certificate, key)
    }
}
