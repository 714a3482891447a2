import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// Issues X.509 v2 CRLs (RFC 5280 §5.1) signed with ECDSA, for tests and demos: the issuer's
/// name, thisUpdate/nextUpdate, the revoked serial numbers, and the cRLNumber and
/// authorityKeyIdentifier extensions every conforming CRL carries (§5.2.1, §5.2.3). Returns
/// the DER; read it back with SigilCRL's `CRL(derEncoded:)`.
public struct CRLBuilder: Sendable {
    /// One revoked certificate: its serial number (big-endian magnitude) and revocation time.
    public struct Entry: Sendable {
        /// The revoked certificate's serial number, big-endian magnitude.
        public let serialNumber: [UInt8]
        /// When it was revoked, seconds since 1970.
        public let revocationDate: Int64
        /// An entry for the certificate with `serialNumber`, revoked at `revocationDate` (seconds since 1970).
        public init(serialNumber: [UInt8], revocationDate: Int64) {
            self.serialNumber = serialNumber
            self.revocationDate = revocationDate
        }
    }

    /// The certificate whose subject issues the CRL and whose key signs it.
    public var issuer: Certificate
    /// thisUpdate, seconds since 1970.
    public var thisUpdate: Int64
    /// nextUpdate, seconds since 1970.
    public var nextUpdate: Int64
    /// The revoked certificates.
    public var entries: [Entry]
    /// The cRLNumber extension's value.
    public var crlNumber: Int
    /// Whether the cRLNumber extension is written (true by default; false makes a CRL outside
    /// the §5.2.3 profile, for tests).
    public var includesCRLNumber = true
    /// Whether the cRLNumber extension is marked critical (false by default, as §5.2.3 requires).
    public var crlNumberCritical = false

    /// A CRL issued by `issuer` (its subject becomes the CRL issuer, its subjectKeyIdentifier the
    /// authorityKeyIdentifier), valid from `thisUpdate` to `nextUpdate`, listing `entries`.
    public init(issuer: Certificate, thisUpdate: Int64, nextUpdate: Int64, entries: [Entry] = [], crlNumber: Int = 1) {
        self.issuer = issuer
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.entries = entries
        self.crlNumber = crlNumber
    }

    /// The CRL's DER, signed with `issuerKey` (ecdsa-with-SHA256 for P-256, -SHA384 for P-384).
    public func sign(with issuerKey: ECDSAPrivateKey) throws(X509Error) -> [UInt8] {
        let algorithm = TestPKISigning.algorithm(for: issuerKey)
        var extensions: [CertificateBuilder.ExtensionValue] = []
        if includesCRLNumber {
            var number = DERWriter()
            number.append(ASN1Integer(crlNumber))
            extensions.append(.init(oid: X509OIDs.cRLNumber, critical: crlNumberCritical, value: number.bytes))
        }
        if let keyIdentifier = issuer.subjectKeyIdentifier { extensions.append(.authorityKeyIdentifier(keyIdentifier)) }
        var tbs = DERWriter()
        do {
            try tbs.appendSequence { t in
                t.append(ASN1Integer(1))  // v2
                t.appendEncoded(algorithm.der)
                t.appendEncoded(issuer.subject.derBytes)
                try TestPKISigning.time(thisUpdate, into: &t)
                try TestPKISigning.time(nextUpdate, into: &t)
                if !entries.isEmpty {
                    try t.appendSequence { list in
                        for entry in entries {
                            try list.appendSequence { item in
                                item.append(ASN1Integer(unsignedMagnitude: entry.serialNumber))
                                try TestPKISigning.time(entry.revocationDate, into: &item)
                            }
                        }
                    }
                }
                t.appendExplicit(.contextSpecific(0)) { TestPKISigning.extensions(extensions, into: &$0) }
            }
        } catch {
            throw X509Error(.malformed, "CRL builder: \(error)")
        }
        return TestPKISigning.signed(tbs.bytes, algorithm: algorithm, key: issuerKey)
    }
}
