import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// Issues X.509 v3 certificates (RFC 5280 §4.1) signed with ECDSA: for test PKIs, `sigil demo`
/// and benchmarks that must not depend on outside files. Every certificate it writes is parsed
/// back with `Certificate(derEncoded:)` before it is returned, so it meets the same strict reader
/// as any other.
///
/// Signing is constant time (the ECDSA signer); everything else is public data.
public struct CertificateBuilder: Sendable {
    /// One extension: its OID, criticality and the DER of its extnValue's content.
    public struct ExtensionValue: Sendable {
        /// The extension's OID.
        public let oid: ASN1ObjectIdentifier
        /// Whether it is marked critical.
        public let critical: Bool
        /// The DER of the extnValue OCTET STRING's content.
        public let value: [UInt8]
        /// An extension with its OID, criticality and DER extnValue content.
        public init(oid: ASN1ObjectIdentifier, critical: Bool, value: [UInt8]) {
            self.oid = oid
            self.critical = critical
            self.value = value
        }

        /// basicConstraints (critical): cA and an optional pathLenConstraint.
        public static func basicConstraints(ca: Bool, pathLength: Int? = nil) -> ExtensionValue {
            var writer = DERWriter()
            writer.appendSequence { seq in
                if ca { seq.appendPrimitive(.boolean, content: [0xFF]) }
                if let pathLength { seq.append(ASN1Integer(pathLength)) }
            }
            return ExtensionValue(oid: X509OIDs.basicConstraints, critical: true, value: writer.bytes)
        }

        /// keyUsage (critical) from RFC 5280 §4.2.1.3 bit numbers (0 digitalSignature, 5
        /// keyCertSign, 6 cRLSign, …), DER with trailing zero bits removed.
        public static func keyUsage(_ bits: Set<Int>) -> ExtensionValue {
            let highest = bits.max() ?? 0
            var bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
            for bit in bits { bytes[bit / 8] |= 0x80 >> UInt8(bit % 8) }
            let unused = bits.isEmpty ? 0 : 7 - highest % 8
            var writer = DERWriter()
            writer.appendPrimitive(.bitString, content: [UInt8(unused)] + bytes)
            return ExtensionValue(oid: X509OIDs.keyUsage, critical: true, value: writer.bytes)
        }

        /// subjectKeyIdentifier: method 1 of RFC 5280 §4.2.1.2 (SHA-1 of the public key bits).
        public static func subjectKeyIdentifier(_ keyIdentifier: [UInt8]) -> ExtensionValue {
            var writer = DERWriter()
            writer.appendPrimitive(.octetString, content: keyIdentifier)
            return ExtensionValue(oid: X509OIDs.subjectKeyIdentifier, critical: false, value: writer.bytes)
        }

        /// authorityKeyIdentifier with keyIdentifier only.
        public static func authorityKeyIdentifier(_ keyIdentifier: [UInt8]) -> ExtensionValue {
            var writer = DERWriter()
            writer.appendSequence { $0.appendPrimitive(.contextSpecific(0), content: keyIdentifier) }
            return ExtensionValue(oid: X509OIDs.authorityKeyIdentifier, critical: false, value: writer.bytes)
        }

        /// extKeyUsage (non-critical).
        public static func extendedKeyUsage(_ purposes: [ASN1ObjectIdentifier]) -> ExtensionValue {
            var writer = DERWriter()
            writer.appendSequence { seq in for oid in purposes { seq.append(oid) } }
            return ExtensionValue(oid: X509OIDs.extKeyUsage, critical: false, value: writer.bytes)
        }

        /// authorityInfoAccess with one OCSP responder URI.
        public static func ocspResponder(_ uri: String) -> ExtensionValue {
            var writer = DERWriter()
            writer.appendSequence { seq in
                seq.appendSequence { access in
                    access.append(X509OIDs.accessOCSP)
                    access.appendPrimitive(.contextSpecific(6), content: Array(uri.utf8))
                }
            }
            return ExtensionValue(oid: X509OIDs.authorityInfoAccess, critical: false, value: writer.bytes)
        }

        /// A marker extension whose value is NULL (Apple's 1.2.840.113635.100.6.x OIDs).
        public static func marker(_ oid: ASN1ObjectIdentifier) -> ExtensionValue {
            ExtensionValue(oid: oid, critical: false, value: [0x05, 0x00])
        }
    }

    /// The serial number's two's-complement bytes.
    public var serialNumber: [UInt8]
    /// DER Names (see `CertificateBuilder.name`).
    public var issuer: [UInt8]
    /// The subject's DER Name.
    public var subject: [UInt8]
    /// Seconds since 1970; written as UTCTime through 2049 and GeneralizedTime after (§4.1.2.5).
    public var notBefore: Int64
    /// Seconds since 1970, written like `notBefore`.
    public var notAfter: Int64
    /// DER SubjectPublicKeyInfo.
    public var subjectPublicKeyInfo: [UInt8]
    /// The extensions, in order.
    public var extensions: [ExtensionValue]

    /// A certificate to sign: serial, DER issuer and subject Names, validity (seconds since 1970), DER SubjectPublicKeyInfo and extensions in order.
    public init(
        serialNumber: [UInt8], issuer: [UInt8], subject: [UInt8], notBefore: Int64, notAfter: Int64,
        subjectPublicKeyInfo: [UInt8], extensions: [ExtensionValue] = []
    ) {
        self.serialNumber = serialNumber
        self.issuer = issuer
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectPublicKeyInfo = subjectPublicKeyInfo
        self.extensions = extensions
    }

    /// A DER Name of one attribute per RDN, in order: countryName as PrintableString, the rest
    /// as UTF8String.
    public static func name(_ attributes: [(ASN1ObjectIdentifier, String)]) -> [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { rdns in
            for (type, value) in attributes {
                rdns.appendConstructed(.set) { set in
                    set.appendSequence { atv in
                        atv.append(type)
                        let bytes = Array(value.utf8)
                        atv.appendPrimitive(type == AttributeTypeAndValue.countryName ? .printableString : .utf8String, content: bytes)
                    }
                }
            }
        }
        return writer.bytes
    }

    /// The key identifier of RFC 5280 §4.2.1.2 method 1 for a public key.
    public static func keyIdentifier(_ key: ECDSAPublicKey) -> [UInt8] { SHA1.hash(key.uncompressedRepresentation) }

    /// Signs the certificate with `issuerKey` (ecdsa-with-SHA256 for a P-256 issuer key,
    /// ecdsa-with-SHA384 for P-384) and returns it parsed.
    public func sign(with issuerKey: ECDSAPrivateKey) throws(X509Error) -> Certificate {
        let algorithm = TestPKISigning.algorithm(for: issuerKey)
        var tbs = DERWriter()
        do {
            try tbs.appendSequence { t in
                t.appendExplicit(.contextSpecific(0)) { $0.append(ASN1Integer(2)) }
                t.append(ASN1Integer(unsignedMagnitude: serialNumber))
                t.appendEncoded(algorithm.der)
                t.appendEncoded(issuer)
                try t.appendSequence { validity in
                    try TestPKISigning.time(notBefore, into: &validity)
                    try TestPKISigning.time(notAfter, into: &validity)
                }
                t.appendEncoded(subject)
                t.appendEncoded(subjectPublicKeyInfo)
                if !extensions.isEmpty {
                    t.appendExplicit(.contextSpecific(3)) { TestPKISigning.extensions(extensions, into: &$0) }
                }
            }
        } catch {
            throw X509Error(.malformed, "certificate builder: \(error)")
        }
        return try Certificate(derEncoded: TestPKISigning.signed(tbs.bytes, algorithm: algorithm, key: issuerKey))
    }
}
