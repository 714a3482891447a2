import SigilASN1
import SigilBase
import SigilX509

/// One entry of a CRL's revokedCertificates list (RFC 5280 §5.1.2.6, §5.3):
///
/// ```
/// revokedCertificates SEQUENCE OF SEQUENCE {
///     userCertificate         CertificateSerialNumber,
///     revocationDate          Time,
///     crlEntryExtensions      Extensions OPTIONAL }  -- if present, version MUST be v2
/// CertificateSerialNumber ::= INTEGER
/// ```
/// The entry extensions Sigil knows are decoded: reasonCode (§5.3.1), invalidityDate (§5.3.2)
/// and certificateIssuer (§5.3.3); any other is kept, and a critical one Sigil does not know is
/// reported by `unhandledCriticalExtensions` (such a CRL cannot be used, §5.3).
public struct RevokedCertificate: Hashable, Sendable {
    /// The serial number's two's-complement bytes, as received.
    public let serialNumber: [UInt8]
    /// Seconds since the epoch.
    public let revocationDate: Int64
    /// revocationDate as encoded.
    public let revocationDateComponents: ASN1TimeComponents
    /// The entry's extensions, as received.
    public let extensions: [Extension]
    /// reasonCode, when the entry carries one.
    public let reason: CRLReason?
    /// invalidityDate (GeneralizedTime), when the entry carries one.
    public let invalidityDate: ASN1TimeComponents?
    /// The certificateIssuer entry extension of this entry itself (indirect CRLs, §5.3.3).
    public let certificateIssuer: [GeneralName]?
    /// Who issued the revoked certificate: the certificateIssuer of this entry or of the nearest
    /// entry before it that has one; nil means the CRL issuer (§5.3.3). Set by the CRL.
    public internal(set) var effectiveCertificateIssuer: [GeneralName]?

    /// The serial number in lowercase hex, as received.
    public var serialNumberHex: String { Base16.encode(serialNumber) }

    /// Critical entry extensions Sigil does not process.
    public var unhandledCriticalExtensions: [ASN1ObjectIdentifier] {
        extensions.filter { $0.critical && !RevokedCertificate.known.contains($0.oid) }.map { $0.oid }
    }

    static let known: Set<ASN1ObjectIdentifier> = [X509OIDs.reasonCode, X509OIDs.invalidityDate, X509OIDs.certificateIssuer]

    /// Parses one entry strictly; `version` is the CRL's (extensions need v2).
    init(node: ASN1Node, version: Int) throws(X509Error) {
        var reader: ASN1SequenceReader
        let serial: [UInt8]
        let date: ASN1TimeComponents
        let list: ASN1Node?
        do throws(ASN1Error) {
            reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
            serial = try ASN1Integer(node: reader.next(.integer)).twosComplementBytes
            date = try crlTime(reader.next())
            list = reader.nextIfPresent(.sequence)
            if let list { try ASN1.expect(list, .sequence, constructed: true) }
        } catch {
            throw CRL.malformed(error)
        }
        var extensions: [Extension] = []
        if let list {
            for child in list.children {
                let fields: Extension.Fields
                do { fields = try Extension.fields(of: child) } catch { throw CRL.malformed(error) }
                extensions.append(try Extension(fields))
            }
            guard !extensions.isEmpty else {
                throw CRL.malformed(list.error(.unexpectedElementCount, "crlEntryExtensions must not be empty (RFC 5280 §5.1)"))
            }
        }
        do {
            try reader.finish()
        } catch {
            throw CRL.malformed(error)
        }
        guard extensions.isEmpty || version == 2 else {
            throw X509Error(.unsupportedVersion, "CRL entry extensions need version v2 (RFC 5280 §5.1.2.1)")
        }
        var seen = Set<ASN1ObjectIdentifier>()
        for e in extensions where !seen.insert(e.oid).inserted {
            throw X509Error(.duplicateExtension, "CRL entry extension \(e.name) appears more than once (RFC 5280 §4.2)")
        }
        var reason: CRLReason?
        var invalidity: ASN1TimeComponents?
        var issuer: [GeneralName]?
        for e in extensions {
            do throws(ASN1Error) {
                switch e.oid {
                case X509OIDs.reasonCode: reason = try CRLReason(node: DER.parse(e.rawValue))
                case X509OIDs.invalidityDate: invalidity = try ASN1GeneralizedTime(node: DER.parse(e.rawValue)).components
                case X509OIDs.certificateIssuer: issuer = try GeneralName.names(DER.parse(e.rawValue))
                default: break
                }
            } catch {
                throw X509Error(wrapping: error, as: .invalidExtension, context: "CRL entry extension \(e.name)")
            }
        }
        self.serialNumber = serial
        self.revocationDateComponents = date
        self.revocationDate = date.secondsSinceEpoch
        self.extensions = extensions
        self.reason = reason
        self.invalidityDate = invalidity
        self.certificateIssuer = issuer
        self.effectiveCertificateIssuer = nil
    }
}

/// Time (RFC 5280 §5.1.2.4–§5.1.2.6, the rules of §4.1.2.5): UTCTime or GeneralizedTime in DER
/// form, without fractional seconds. (A GeneralizedTime before 2050 is accepted, as in Validity.)
func crlTime(_ node: ASN1Node) throws(ASN1Error) -> ASN1TimeComponents {
    switch node.identifier {
    case .utcTime:
        return try ASN1UTCTime(node: node).components
    case .generalizedTime:
        let components = try ASN1GeneralizedTime(node: node).components
        guard components.fraction.isEmpty else {
            throw node.error(.invalidTime, "CRL GeneralizedTime must not have fractional seconds (RFC 5280 §5.1.2.4)")
        }
        return components
    default:
        throw node.error(.unexpectedTag, "Time must be UTCTime or GeneralizedTime, found \(node.identifier)")
    }
}
