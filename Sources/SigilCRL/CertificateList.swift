import SigilASN1
import SigilBase
import SigilCore
import SigilKeys
import SigilX509

/// A certificate revocation list (RFC 5280 §5.1), every field and extension decoded, parsed
/// strictly as DER, with an index for looking up a serial number.
///
/// ```
/// CertificateList ::= SEQUENCE {
///     tbsCertList          TBSCertList,
///     signatureAlgorithm   AlgorithmIdentifier,
///     signatureValue       BIT STRING }
/// TBSCertList ::= SEQUENCE {
///     version                 Version OPTIONAL,  -- if present, MUST be v2
///     signature               AlgorithmIdentifier,
///     issuer                  Name,
///     thisUpdate              Time,
///     nextUpdate              Time OPTIONAL,
///     revokedCertificates     SEQUENCE OF SEQUENCE {
///          userCertificate         CertificateSerialNumber,
///          revocationDate          Time,
///          crlEntryExtensions      Extensions OPTIONAL } OPTIONAL,
///     crlExtensions           [0] EXPLICIT Extensions OPTIONAL }  -- if present, version MUST be v2
/// ```
///
/// Size: a CRL may list millions of certificates. The list is never held as one parse tree:
/// its elements are walked one by one (`DERHeader`), each entry is parsed and checked on its own
/// and then dropped, and what is kept per entry is a fixed 20-byte record (where it is in the
/// DER, where its serial is, which certificate issuer it belongs to) plus a 4-byte slot of a
/// sorted index. Memory is the DER plus 24 bytes per entry; a lookup by serial is a binary
/// search. `Limits` bound the bytes, the entries and the distinct certificate issuers (indirect
/// CRLs) before any of them is allocated for.
public struct CRL: Hashable, Sendable, CustomStringConvertible {
    /// Bounds on what one CRL may hold; exceeding one is `X509Error.Code.limitExceeded`.
    public struct Limits: Hashable, Sendable {
        /// The largest DER accepted, in bytes.
        public var maximumBytes: Int
        /// The most entries accepted.
        public var maximumEntries: Int
        /// Distinct certificateIssuer values in an indirect CRL (each lookup compares against them).
        public var maximumEntryIssuers: Int

        /// Bounds: `maximumBytes` of DER (below 4 GiB), `maximumEntries` entries, `maximumEntryIssuers` certificate issuers.
        public init(maximumBytes: Int = 64 << 20, maximumEntries: Int = 4_000_000, maximumEntryIssuers: Int = 1024) {
            self.maximumBytes = min(maximumBytes, Int(UInt32.max))
            self.maximumEntries = maximumEntries
            self.maximumEntryIssuers = maximumEntryIssuers
        }

        /// 64 MiB, 4 million entries, 1,024 certificate issuers.
        public static let `default` = Limits()
    }

    /// The whole CRL as received.
    public let derBytes: [UInt8]
    let tbsRange: Range<Int>
    /// 1 (no version field) or 2.
    public let version: Int
    /// The signature algorithm as encoded.
    public let signatureAlgorithmIdentifier: AlgorithmIdentifier
    /// The signature algorithm, decoded.
    public let signatureAlgorithm: SignatureAlgorithm
    /// Who issued the CRL.
    public let issuer: DistinguishedName
    /// Seconds since the epoch.
    public let thisUpdate: Int64
    /// thisUpdate as encoded (UTCTime or GeneralizedTime).
    public let thisUpdateComponents: ASN1TimeComponents
    /// nextUpdate, seconds since the epoch, when present.
    public let nextUpdate: Int64?
    /// nextUpdate as encoded, when present.
    public let nextUpdateComponents: ASN1TimeComponents?
    /// The crlExtensions, every one kept (the CRL ones Sigil knows are decoded below).
    public let extensions: [Extension]
    /// The signatureValue BIT STRING's bytes.
    public let signature: [UInt8]
    /// The signatureValue's unused bits: no signature Sigil verifies has any, so a CRL with
    /// some parses (the BIT STRING is valid DER) but never verifies.
    public let signatureUnusedBits: Int
    /// cRLNumber (§5.2.3).
    public let crlNumber: CRLNumber?
    /// deltaCRLIndicator's BaseCRLNumber (§5.2.4): set only on a delta CRL.
    public let deltaCRLIndicator: CRLNumber?
    /// issuingDistributionPoint (§5.2.5).
    public let issuingDistributionPoint: IssuingDistributionPoint?
    /// freshestCRL (§5.2.6): where delta CRLs for this complete CRL are.
    public let freshestCRL: [DistributionPoint]?
    /// authorityKeyIdentifier (§5.2.1).
    public let authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// Critical CRL extensions and critical entry extensions Sigil does not process: a CRL with
    /// any cannot be used to decide revocation (§5.2, §5.3).
    public let unhandledCriticalExtensions: [ASN1ObjectIdentifier]

    /// One entry's place in `derBytes` (fixed size, so memory is linear in the entry count).
    struct EntryRecord: Sendable {
        var start: UInt32
        var end: UInt32
        var serialStart: UInt32
        var serialCount: UInt32
        /// 0: the CRL issuer; k > 0: `entryIssuers[k - 1]` (certificateIssuer, §5.3.3).
        var issuer: UInt32
    }

    let records: [EntryRecord]
    /// Record numbers sorted by (serial length, serial bytes, issuer).
    let sortedRecords: [UInt32]
    /// The distinct certificateIssuer values, in order of first appearance.
    public let entryIssuers: [[GeneralName]]

    /// Parses a DER CRL strictly (every field, every known extension, every entry), within `limits`.
    public init<Bytes: Collection>(derEncoded bytes: Bytes, limits: Limits = .default) throws(X509Error) where Bytes.Element == UInt8 {
        let data = Array(bytes)
        // Offsets are kept as UInt32: never more than 4 GiB, whatever the limits say.
        let maximumBytes = min(limits.maximumBytes, Int(UInt32.max))
        guard data.count <= maximumBytes else {
            throw X509Error(.limitExceeded, "CRL of \(data.count) bytes exceeds \(maximumBytes)")
        }
        var parser = Parser(data: data, limits: limits)
        try parser.parse()
        derBytes = data
        tbsRange = parser.tbsRange
        version = parser.version
        signatureAlgorithmIdentifier = parser.algorithm
        signatureAlgorithm = try SignatureAlgorithm(parser.algorithm)
        guard let issuer = parser.issuer, let thisUpdate = parser.thisUpdate else { throw X509Error(.malformed, "TBSCertList") }
        self.issuer = issuer
        thisUpdateComponents = thisUpdate
        self.thisUpdate = thisUpdate.secondsSinceEpoch
        nextUpdateComponents = parser.nextUpdate
        nextUpdate = parser.nextUpdate?.secondsSinceEpoch
        extensions = parser.extensions
        signature = parser.signature
        signatureUnusedBits = parser.signatureUnusedBits
        records = parser.records
        entryIssuers = parser.entryIssuers
        var crlNumber: CRLNumber?
        var delta: CRLNumber?
        var idp: IssuingDistributionPoint?
        var freshest: [DistributionPoint]?
        var akid: AuthorityKeyIdentifier?
        var unhandled: [ASN1ObjectIdentifier] = []
        for e in parser.extensions {
            switch e.oid {
            case X509OIDs.cRLNumber: crlNumber = try CRL.value(of: e, CRLNumber.init(node:))
            case X509OIDs.deltaCRLIndicator:
                guard e.critical else { throw X509Error(.invalidExtension, "deltaCRLIndicator must be critical (RFC 5280 §5.2.4)") }
                delta = try CRL.value(of: e, CRLNumber.init(node:))
            case X509OIDs.issuingDistributionPoint: idp = try CRL.value(of: e, IssuingDistributionPoint.init(node:))
            case X509OIDs.freshestCRL:
                let points = try CRL.value(of: e, CRL.distributionPoints)
                guard !points.isEmpty else { throw X509Error(.invalidExtension, "freshestCRL must not be empty") }
                freshest = points
            case X509OIDs.authorityKeyIdentifier:
                if case .authorityKeyIdentifier(let v) = e.value { akid = v }
            case X509OIDs.issuerAltName, X509OIDs.authorityInfoAccess: break
            default: if e.critical { unhandled.append(e.oid) }
            }
        }
        self.crlNumber = crlNumber
        deltaCRLIndicator = delta
        issuingDistributionPoint = idp
        freshestCRL = freshest
        authorityKeyIdentifier = akid
        unhandledCriticalExtensions = unhandled + parser.unhandledEntryExtensions.sorted { $0.dotted < $1.dotted }
        // The index: record numbers by serial (length first, then bytes), then issuer.
        let records = parser.records
        var order = [UInt32](unsafeUninitializedCapacity: records.count) { buffer, count in
            for i in 0..<records.count { buffer[i] = UInt32(truncatingIfNeeded: i) }
            count = records.count
        }
        order.sort { CRL.compare(records[Int($0)], records[Int($1)], in: data) < 0 }
        sortedRecords = order
    }

    /// An ASN.1 error met while reading a CRL, as the CRL's error.
    static func malformed(_ error: ASN1Error) -> X509Error {
        X509Error(wrapping: error, as: .malformed, context: "CRL")
    }

    /// The value of CRL extension `e`, decoded by `decode`; an error is `.invalidExtension`.
    static func value<Value>(of e: Extension, _ decode: (ASN1Node) throws(ASN1Error) -> Value) throws(X509Error) -> Value {
        do {
            return try decode(DER.parse(e.rawValue))
        } catch {
            throw X509Error(wrapping: error, as: .invalidExtension, context: "CRL extension \(e.name)")
        }
    }

    /// A SEQUENCE OF DistributionPoint (freshestCRL's value).
    static func distributionPoints(_ node: ASN1Node) throws(ASN1Error) -> [DistributionPoint] {
        try ASN1.expect(node, .sequence, constructed: true)
        var points: [DistributionPoint] = []
        for child in node.children { points.append(try DistributionPoint(node: child)) }
        return points
    }

    /// Orders two records: serial length, serial bytes, then issuer number. -1, 0 or 1.
    static func compare(_ a: EntryRecord, _ b: EntryRecord, in data: [UInt8]) -> Int {
        if a.serialCount != b.serialCount { return a.serialCount < b.serialCount ? -1 : 1 }
        var i = Int(a.serialStart)
        var j = Int(b.serialStart)
        let end = i + Int(a.serialCount)
        while i < end {
            if data[i] != data[j] { return data[i] < data[j] ? -1 : 1 }
            i += 1
            j += 1
        }
        if a.issuer != b.issuer { return a.issuer < b.issuer ? -1 : 1 }
        return 0
    }

    /// The walk over the DER: outer elements by header, small ones parsed whole, entries one by one.
    private struct Parser {
        let data: [UInt8]
        let limits: Limits
        var tbsRange = 0..<0
        var version = 1
        var algorithm = AlgorithmIdentifier(algorithm: [2, 5])
        var issuer: DistinguishedName?
        var thisUpdate: ASN1TimeComponents?
        var nextUpdate: ASN1TimeComponents?
        var extensions: [Extension] = []
        var signature: [UInt8] = []
        var signatureUnusedBits = 0
        var records: [EntryRecord] = []
        var entryIssuers: [[GeneralName]] = []
        var entryIssuerNumbers: [[UInt8]: UInt32] = [:]
        var unhandledEntryExtensions = Set<ASN1ObjectIdentifier>()

        init(data: [UInt8], limits: Limits) {
            self.data = data
            self.limits = limits
        }

        func header(at position: Int, limit: Int, _ expected: ASN1Identifier? = nil, what: String) throws(ASN1Error) -> DERHeader {
            guard position < limit else {
                throw ASN1Error(.unexpectedElementCount, "CRL ends before its \(what)", offset: position)
            }
            let h = try DERHeader(reading: data, at: position, limit: limit)
            if let expected, h.identifier != expected {
                throw ASN1Error(.unexpectedTag, "\(what): expected \(expected), found \(h.identifier)", offset: position)
            }
            return h
        }

        /// One small element parsed on its own.
        func node(_ h: DERHeader) throws(ASN1Error) -> ASN1Node { try DER.parse(data[h.start..<h.end]) }

        mutating func parse() throws(X509Error) {
            let tbs: DERHeader
            let outerAlgorithm: DERHeader
            do throws(ASN1Error) {
                guard !data.isEmpty else { throw ASN1Error(.truncated, "input is empty", offset: 0) }
                let outer = try header(at: 0, limit: data.count, .sequence, what: "CertificateList")
                guard outer.end == data.count else {
                    throw ASN1Error(.trailingBytes, "\(data.count - outer.end) bytes follow the CRL", offset: outer.end)
                }
                tbs = try header(at: outer.contentStart, limit: outer.end, .sequence, what: "tbsCertList")
                outerAlgorithm = try header(at: tbs.end, limit: outer.end, .sequence, what: "signatureAlgorithm")
                let signatureValue = try header(at: outerAlgorithm.end, limit: outer.end, .bitString, what: "signatureValue")
                guard signatureValue.end == outer.end else {
                    throw ASN1Error(
                        .unexpectedElementCount, "CertificateList has an element after signatureValue", offset: signatureValue.end)
                }
                let bits = try ASN1BitString(node: node(signatureValue))
                signature = bits.bytes
                signatureUnusedBits = bits.unusedBits
            } catch {
                throw CRL.malformed(error)
            }
            tbsRange = tbs.start..<tbs.end
            try parseTBS(tbs, outerAlgorithm: Array(data[outerAlgorithm.start..<outerAlgorithm.end]))
        }

        mutating func parseTBS(_ tbs: DERHeader, outerAlgorithm: [UInt8]) throws(X509Error) {
            var position = tbs.contentStart
            let end = tbs.end
            var h: DERHeader
            do throws(ASN1Error) {
                h = try header(at: position, limit: end, what: "version or signature")
                if h.identifier == .integer {
                    let value = try ASN1Integer(node: node(h))
                    guard value.int64Value == 1 else {
                        throw ASN1Error(
                            .integerOutOfRange, "CRL version \(value) present but not v2 (1) (RFC 5280 §5.1.2.1)", offset: h.start)
                    }
                    version = 2
                    position = h.end
                    h = try header(at: position, limit: end, .sequence, what: "signature")
                }
                guard h.identifier == .sequence else {
                    throw ASN1Error(.unexpectedTag, "signature: expected SEQUENCE, found \(h.identifier)", offset: h.start)
                }
            } catch {
                throw CRL.malformed(error)
            }
            guard Array(data[h.start..<h.end]) == outerAlgorithm else {
                throw X509Error(.algorithmMismatch, "signatureAlgorithm differs from the TBSCertList signature field (RFC 5280 §5.1.1.2)")
            }
            let name: DistinguishedName
            do throws(ASN1Error) {
                algorithm = try AlgorithmIdentifier(node: node(h))
                h = try header(at: h.end, limit: end, .sequence, what: "issuer")
                name = try DistinguishedName(node: node(h))
            } catch {
                throw CRL.malformed(error)
            }
            guard !name.rdns.isEmpty else { throw X509Error(.malformed, "CRL issuer is an empty name (RFC 5280 §5.1.2.3)") }
            issuer = name
            do throws(ASN1Error) {
                h = try header(at: h.end, limit: end, what: "thisUpdate")
                thisUpdate = try crlTime(node(h))
                position = h.end
                if position < end {
                    h = try header(at: position, limit: end, what: "nextUpdate")
                    if h.identifier == .utcTime || h.identifier == .generalizedTime {
                        nextUpdate = try crlTime(node(h))
                        position = h.end
                    }
                }
            } catch {
                throw CRL.malformed(error)
            }
            if position < end {
                do {
                    h = try header(at: position, limit: end, what: "revokedCertificates")
                } catch {
                    throw CRL.malformed(error)
                }
                if h.identifier == .sequence {
                    try parseEntries(h)
                    position = h.end
                }
            }
            if position < end {
                let list: ASN1Node
                do throws(ASN1Error) {
                    h = try header(at: position, limit: end, .contextSpecific(0), what: "crlExtensions")
                    guard h.isConstructed else {
                        throw ASN1Error(.invalidConstruction, "crlExtensions [0] must be constructed", offset: h.start)
                    }
                    list = try ASN1.explicitInner(node(h), tag: .contextSpecific(0))
                    try ASN1.expect(list, .sequence, constructed: true)
                } catch {
                    throw CRL.malformed(error)
                }
                for child in list.children {
                    let fields: Extension.Fields
                    do { fields = try Extension.fields(of: child) } catch { throw CRL.malformed(error) }
                    extensions.append(try Extension(fields))
                }
                guard !extensions.isEmpty else { throw X509Error(.malformed, "crlExtensions must not be empty (RFC 5280 §5.1)") }
                guard version == 2 else { throw X509Error(.unsupportedVersion, "crlExtensions need version v2 (RFC 5280 §5.1.2.1)") }
                var seen = Set<ASN1ObjectIdentifier>()
                for e in extensions where !seen.insert(e.oid).inserted {
                    throw X509Error(.duplicateExtension, "CRL extension \(e.name) appears more than once (RFC 5280 §4.2)")
                }
                position = h.end
            }
            guard position == end else {
                throw CRL.malformed(ASN1Error(.unexpectedElementCount, "TBSCertList has an unexpected element", offset: position))
            }
        }

        mutating func parseEntries(_ list: DERHeader) throws(X509Error) {
            var position = list.contentStart
            guard position < list.end else {
                throw X509Error(.malformed, "revokedCertificates is empty: RFC 5280 §5.1.2.6 requires it absent when nothing is revoked")
            }
            var currentIssuer: UInt32 = 0
            // The smallest entry is 20 bytes (SEQUENCE, 1-octet INTEGER, UTCTime): never more
            // records than that allows, so the reservation is at most the list's size.
            records.reserveCapacity(max(0, min((list.end - list.contentStart) / 20 + 1, limits.maximumEntries)))
            while position < list.end {
                guard records.count < limits.maximumEntries else {
                    throw X509Error(.limitExceeded, "CRL lists more than \(limits.maximumEntries) certificates")
                }
                let h: DERHeader
                let entryNode: ASN1Node
                do throws(ASN1Error) {
                    h = try header(at: position, limit: list.end, .sequence, what: "revokedCertificates entry")
                    entryNode = try node(h)
                } catch {
                    throw CRL.malformed(error)
                }
                let entry = try RevokedCertificate(node: entryNode, version: version)
                let serial: DERHeader
                do {
                    serial = try header(at: h.contentStart, limit: h.end, .integer, what: "userCertificate")
                } catch {
                    throw CRL.malformed(error)
                }
                if let names = entry.certificateIssuer {
                    let key = entry.extensions.first { $0.oid == X509OIDs.certificateIssuer }?.rawValue ?? []
                    if let known = entryIssuerNumbers[key] {
                        currentIssuer = known
                    } else {
                        guard entryIssuers.count < limits.maximumEntryIssuers else {
                            throw X509Error(.limitExceeded, "CRL names more than \(limits.maximumEntryIssuers) certificate issuers")
                        }
                        entryIssuers.append(names)
                        currentIssuer = UInt32(entryIssuers.count)
                        entryIssuerNumbers[key] = currentIssuer
                    }
                }
                for oid in entry.unhandledCriticalExtensions { unhandledEntryExtensions.insert(oid) }
                records.append(
                    EntryRecord(
                        start: UInt32(h.start), end: UInt32(h.end), serialStart: UInt32(serial.contentStart),
                        serialCount: UInt32(serial.end - serial.contentStart), issuer: currentIssuer))
                position = h.end
            }
        }
    }

    // MARK: - Entries

    /// The TBSCertList's encoding: what the issuer signed.
    public var tbsBytes: ArraySlice<UInt8> { derBytes[tbsRange] }

    /// The number of revoked certificates listed.
    public var entryCount: Int { records.count }

    /// The entry at `index` (in the CRL's order), decoded from the DER; nil outside 0..<entryCount.
    public func entry(at index: Int) -> RevokedCertificate? {
        guard records.indices.contains(index) else { return nil }
        return decode(records[index])
    }

    /// Every entry in the CRL's order, decoded one at a time as the sequence is walked.
    public var entries: some Sequence<RevokedCertificate> { records.indices.lazy.compactMap { entry(at: $0) } }

    func decode(_ record: EntryRecord) -> RevokedCertificate? {
        guard let node = try? DER.parse(derBytes[Int(record.start)..<Int(record.end)]),
            var entry = try? RevokedCertificate(node: node, version: version)
        else { return nil }
        entry.effectiveCertificateIssuer = record.issuer == 0 ? nil : entryIssuers[Int(record.issuer) - 1]
        return entry
    }

    /// The entry for the certificate with `serialNumber` (two's-complement bytes as in the
    /// certificate) issued by `certificateIssuer`: entries the CRL issuer issued (no
    /// certificateIssuer in force) when the names match, and entries under a certificateIssuer
    /// naming it as a directoryName (indirect CRLs, §5.3.3). Binary search per candidate issuer:
    /// O(issuers × log entries), no scan of the list.
    public func revokedEntry(serialNumber: [UInt8], certificateIssuer: DistinguishedName) -> RevokedCertificate? {
        var candidates: [UInt32] = []
        if issuer.matches(certificateIssuer) { candidates.append(0) }
        for (k, names) in entryIssuers.enumerated()
        where names.contains(where: {
            if case .directoryName(let dn) = $0 { dn.matches(certificateIssuer) } else { false }
        }) {
            candidates.append(UInt32(k + 1))
        }
        for candidate in candidates {
            if let record = find(serialNumber: serialNumber, issuer: candidate) { return decode(record) }
        }
        return nil
    }

    /// Binary search of the sorted index for (serial, issuer number).
    func find(serialNumber: [UInt8], issuer: UInt32) -> EntryRecord? {
        findCountingProbes(serialNumber: serialNumber, issuer: issuer).0
    }

    /// `find`, also returning how many index slots it compared (at most ⌈log2 n⌉ + 1).
    func findCountingProbes(serialNumber: [UInt8], issuer: UInt32) -> (EntryRecord?, Int) {
        var low = 0
        var high = sortedRecords.count
        var probes = 0
        while low < high {
            let mid = (low + high) / 2
            let record = records[Int(sortedRecords[mid])]
            probes += 1
            let order = CRL.compare(record, serialNumber: serialNumber, issuer: issuer, in: derBytes)
            if order == 0 { return (record, probes) }
            if order < 0 { low = mid + 1 } else { high = mid }
        }
        return (nil, probes)
    }

    /// Orders a record against (serial, issuer number), as `compare(_:_:in:)` orders records.
    static func compare(_ a: EntryRecord, serialNumber: [UInt8], issuer: UInt32, in data: [UInt8]) -> Int {
        if Int(a.serialCount) != serialNumber.count { return Int(a.serialCount) < serialNumber.count ? -1 : 1 }
        var i = Int(a.serialStart)
        for byte in serialNumber {
            if data[i] != byte { return data[i] < byte ? -1 : 1 }
            i += 1
        }
        if a.issuer != issuer { return a.issuer < issuer ? -1 : 1 }
        return 0
    }

    // MARK: - Loading and signatures

    /// Every CRL in a file's bytes: PEM "X509 CRL" blocks (RFC 7468 §6), or one DER CRL.
    public static func load<Bytes: Collection>(_ bytes: Bytes, limits: Limits = .default) throws(X509Error) -> [CRL]
    where Bytes.Element == UInt8 {
        let data = Array(bytes)
        // PEM is 4/3 of the DER plus line breaks: twice the DER bound is enough.
        guard data.count / 2 <= limits.maximumBytes else {
            throw X509Error(.limitExceeded, "CRL file of \(data.count) bytes exceeds the limit")
        }
        guard PEMDocument.containsBeginLine(data), let text = String(validating: data, as: UTF8.self) else {
            return [try CRL(derEncoded: data, limits: limits)]
        }
        let blocks: [PEMDocument]
        do {
            blocks = try PEMDocument.parseAll(text)
        } catch {
            throw X509Error(.invalidPEM, "\(error)")
        }
        var crls: [CRL] = []
        for (index, block) in blocks.enumerated() {
            guard block.label == "X509 CRL" else {
                throw X509Error(.invalidPEM, "PEM block \(index + 1) is \"\(block.label)\", not X509 CRL")
            }
            crls.append(try CRL(derEncoded: block.derBytes, limits: limits))
        }
        guard !crls.isEmpty else { throw X509Error(.invalidPEM, "no PEM block found") }
        return crls
    }

    /// The CRL as PEM ("X509 CRL").
    public var pemRepresentation: String { PEMDocument(label: "X509 CRL", derBytes: derBytes).pemString }

    /// Whether `signer`'s key signed this CRL (RFC 5280 §6.3.3 (f)). Variable time.
    public func isSignedVartime(by signer: Certificate, minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits)
        -> Result<Void, CertificatePublicKey.SignatureFailure>
    {
        guard signatureUnusedBits == 0 else { return .failure(.invalidSignature) }
        return signer.publicKey.verifySignatureVartime(
            signature, over: Array(tbsBytes), algorithm: signatureAlgorithm, minimumRSABits: minimumRSABits)
    }

    /// Whether this is a delta CRL (it carries deltaCRLIndicator).
    public var isDelta: Bool { deltaCRLIndicator != nil }

    /// The issuer, thisUpdate and number of entries, for people.
    public var description: String { "CRL(issuer: \(issuer), thisUpdate: \(thisUpdateComponents), entries: \(entryCount))" }

    /// CRLs are equal when their DER encodings are.
    public static func == (lhs: CRL, rhs: CRL) -> Bool { lhs.derBytes == rhs.derBytes }
    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) { derBytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
