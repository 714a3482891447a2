import Foundation
import SigilASN1
import SigilTestSupport
import XCTest

@testable import SigilCRL
@testable import SigilX509

/// The CRL parser against the `openssl crl` CLI on every PKITS CRL (times, number, delta base,
/// issuing distribution point flags, every entry's serial and reason), strictness (truncations,
/// trailing bytes, DER rules of RFC 5280 §5.1), and a hostile CRL of a million entries.
final class CRLParsingTests: XCTestCase {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// openssl's rendering of a time: "Jan  1 08:30:00 2010 GMT".
    static func opensslTime(_ c: ASN1TimeComponents) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let day = c.day < 10 ? " \(c.day)" : "\(c.day)"
        return "\(months[c.month - 1]) \(day) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) \(c.year) GMT"
    }

    /// openssl's rendering of a serial: uppercase hex of the magnitude, "-" for negative values.
    static func opensslSerial(_ bytes: [UInt8]) -> String {
        var magnitude = bytes
        var sign = ""
        if let first = bytes.first, first & 0x80 != 0 {
            sign = "-"
            // Two's-complement negation.
            var carry = 1
            for i in magnitude.indices.reversed() {
                let v = Int(~magnitude[i]) + carry
                magnitude[i] = UInt8(truncatingIfNeeded: v)
                carry = v >> 8
            }
        }
        let hex = Hex.encode(magnitude).uppercased().drop { $0 == "0" }
        return sign + (hex.isEmpty ? "0" : String(hex))
    }

    static let opensslReasons: [CRLReason: String] = [
        .unspecified: "Unspecified", .keyCompromise: "Key Compromise", .cACompromise: "CA Compromise",
        .affiliationChanged: "Affiliation Changed", .superseded: "Superseded", .cessationOfOperation: "Cessation Of Operation",
        .certificateHold: "Certificate Hold", .removeFromCRL: "Remove From CRL", .privilegeWithdrawn: "Privilege Withdrawn",
        .aACompromise: "AA Compromise",
    ]

    /// What `openssl crl -text` says about a CRL, in the terms compared.
    struct OpenSSLView: Equatable {
        var lastUpdate = "", nextUpdate = ""
        var number: String?, deltaBase: String?
        var serials: [String] = []
        var reasons: [String?] = []
        var idpFlags: [String] = []
    }

    static func opensslView(_ text: String) -> OpenSSLView {
        var view = OpenSSLView()
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for (i, line) in lines.enumerated() {
            let next = i + 1 < lines.count ? lines[i + 1] : ""
            if line.hasPrefix("Last Update: ") { view.lastUpdate = String(line.dropFirst(13)) }
            if line.hasPrefix("Next Update: ") { view.nextUpdate = String(line.dropFirst(13)) }
            if line.hasPrefix("X509v3 CRL Number:") { view.number = next }
            if line.hasPrefix("X509v3 Delta CRL Indicator:") { view.deltaBase = next }
            if line.hasPrefix("Serial Number: ") {
                let text = String(line.dropFirst(15)).uppercased()
                let negative = text.hasPrefix("-")
                let digits = String(text.dropFirst(negative ? 1 : 0).drop { $0 == "0" })
                view.serials.append((negative ? "-" : "") + (digits.isEmpty ? "0" : digits))
                view.reasons.append(nil)
            }
            if line.hasPrefix("X509v3 CRL Reason Code:") { view.reasons[view.reasons.count - 1] = next }
            // openssl ends the full-name list and each flag on the same line.
            for flag in ["Only User Certificates", "Only CA Certificates", "Only Attribute Certificates", "Indirect CRL"]
            where line.hasSuffix(flag) {
                view.idpFlags.append(flag)
            }
        }
        return view
    }

    static func sigilView(_ crl: CRL) -> OpenSSLView {
        var view = OpenSSLView()
        view.lastUpdate = opensslTime(crl.thisUpdateComponents)
        view.nextUpdate = crl.nextUpdateComponents.map(opensslTime) ?? "NONE"
        view.number = crl.crlNumber?.description
        view.deltaBase = crl.deltaCRLIndicator?.description
        for entry in crl.entries {
            view.serials.append(opensslSerial(entry.serialNumber))
            view.reasons.append(entry.reason.flatMap { opensslReasons[$0] })
        }
        if let idp = crl.issuingDistributionPoint {
            if idp.onlyContainsUserCerts { view.idpFlags.append("Only User Certificates") }
            if idp.onlyContainsCACerts { view.idpFlags.append("Only CA Certificates") }
            if idp.onlyContainsAttributeCerts { view.idpFlags.append("Only Attribute Certificates") }
            if idp.indirectCRL { view.idpFlags.append("Indirect CRL") }
        }
        return view
    }

    static func pkitsCRLFiles() throws -> [URL] {
        let folder = TestPaths.vectors("pkits/crls")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { $0.hasSuffix(".crl") }
            .map { folder.appendingPathComponent($0) }
    }

    func testEveryPKITSCRLAgreesWithOpenSSL() throws {
        let openssl = try Subprocess.require("openssl")
        let files = try CRLParsingTests.pkitsCRLFiles()
        XCTAssertGreaterThanOrEqual(files.count, 170)
        var entries = 0
        var withReasons = 0
        var deltas = 0
        var idps = 0
        for file in files {
            let crl = try CRL(derEncoded: Array(try Data(contentsOf: file)))
            let result = try Subprocess.run(openssl, ["crl", "-inform", "der", "-in", file.path, "-noout", "-text"])
            XCTAssertEqual(result.status, 0, file.lastPathComponent)
            XCTAssertEqual(CRLParsingTests.sigilView(crl), CRLParsingTests.opensslView(result.stdoutString), file.lastPathComponent)
            XCTAssertEqual(crl.version, 2, file.lastPathComponent)
            entries += crl.entryCount
            withReasons += crl.entries.filter { $0.reason != nil }.count
            if crl.isDelta { deltas += 1 }
            if crl.issuingDistributionPoint != nil { idps += 1 }
            // Every entry is found by its serial under its issuer.
            for entry in crl.entries {
                let issuer =
                    entry.effectiveCertificateIssuer?.compactMap { if case .directoryName(let n) = $0 { n } else { nil } }.first
                    ?? crl.issuer
                XCTAssertEqual(
                    crl.revokedEntry(serialNumber: entry.serialNumber, certificateIssuer: issuer)?.serialNumber,
                    entry.serialNumber, file.lastPathComponent)
            }
        }
        // The set exercises what the parser decodes.
        XCTAssertGreaterThan(entries, 30)
        XCTAssertGreaterThan(withReasons, 30)
        XCTAssertGreaterThanOrEqual(deltas, 3)
        XCTAssertGreaterThanOrEqual(idps, 10)
    }

    func testIndirectCRLEntriesCarryTheirCertificateIssuer() throws {
        // PKITS indirectCRLCA5CRL lists certificates of CA6 (certificateIssuer) in CA5's indirect CRL.
        let crl = try CRL(derEncoded: Array(try Data(contentsOf: TestPaths.vectors("pkits/crls/indirectCRLCA5CRL.crl"))))
        XCTAssertEqual(crl.issuingDistributionPoint?.indirectCRL, true)
        XCTAssertFalse(crl.entryIssuers.isEmpty)
        let underOther = crl.entries.filter { entry in
            guard let names = entry.effectiveCertificateIssuer else { return false }
            return !names.contains { if case .directoryName(let n) = $0 { n.matches(crl.issuer) } else { false } }
        }
        XCTAssertFalse(underOther.isEmpty)
        XCTAssertLessThan(underOther.count, crl.entryCount)
        for entry in underOther {
            // Not found under the CRL issuer's own name, found under the certificate issuer's.
            XCTAssertNil(crl.revokedEntry(serialNumber: entry.serialNumber, certificateIssuer: crl.issuer))
        }
    }

    func testTruncationsAndTrailingBytesAreRefused() throws {
        for name in ["GoodCACRL.crl", "indirectCRLCA5CRL.crl", "deltaCRLCA1deltaCRL.crl"] {
            let der = Array(try Data(contentsOf: TestPaths.vectors("pkits/crls/\(name)")))
            XCTAssertNoThrow(try CRL(derEncoded: der))
            for length in 0..<der.count {
                XCTAssertThrowsError(try CRL(derEncoded: der[0..<length]), "\(name) cut to \(length)")
            }
            for extra: [UInt8] in [[0], [0x30, 0x00], [0xFF]] {
                XCTAssertThrowsError(try CRL(derEncoded: der + extra), "\(name) + \(extra)") { error in
                    XCTAssertEqual((error as? X509Error)?.code, .malformed)
                }
            }
        }
    }

    func testPEMCRLsLoad() throws {
        let der = Array(try Data(contentsOf: TestPaths.vectors("pkits/crls/GoodCACRL.crl")))
        let crl = try CRL(derEncoded: der)
        let both = try CRL.load(Array((crl.pemRepresentation + crl.pemRepresentation).utf8))
        XCTAssertEqual(both, [crl, crl])
        XCTAssertEqual(try CRL.load(der), [crl])
        let certificatePEM = PEMDocument(label: "CERTIFICATE", derBytes: der).pemString
        XCTAssertThrowsError(try CRL.load(Array(certificatePEM.utf8))) { XCTAssertEqual(($0 as? X509Error)?.code, .invalidPEM) }
    }

    // MARK: - Synthetic CRLs

    /// A CRL's DER from parts (not signed: parsing never verifies). Entries are written raw.
    static func syntheticCRL(
        version: Int? = 1, entries: [UInt8]?, entryCount: Int = 0, extensions: [UInt8]? = nil,
        thisUpdate: String = "250101000000Z", nextUpdate: String? = "350101000000Z"
    ) -> [UInt8] {
        var tbs = DERWriter()
        tbs.appendSequence { t in
            if let version { t.append(ASN1Integer(version)) }
            t.appendSequence { $0.append(X509OIDs.ecdsaWithSHA256) }
            t.appendSequence { name in
                name.appendConstructed(.set) { rdn in
                    rdn.appendSequence { atv in
                        atv.append(AttributeTypeAndValue.commonName)
                        atv.appendPrimitive(.utf8String, content: Array("Synthetic CRL issuer".utf8))
                    }
                }
            }
            t.appendPrimitive(.utcTime, content: Array(thisUpdate.utf8))
            if let nextUpdate { t.appendPrimitive(.utcTime, content: Array(nextUpdate.utf8)) }
            if let entries { t.appendConstructed(.sequence) { $0.appendEncoded(entries) } }
            if let extensions { t.appendExplicit(.contextSpecific(0)) { $0.appendSequence { $0.appendEncoded(extensions) } } }
        }
        var whole = DERWriter()
        whole.appendSequence { w in
            w.appendEncoded(tbs.bytes)
            w.appendSequence { $0.append(X509OIDs.ecdsaWithSHA256) }
            w.appendPrimitive(.bitString, content: [0, 0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01])
        }
        return whole.bytes
    }

    /// One entry: serial `serial` (big-endian, positive), revoked 2025-01-01.
    static func entry(_ serial: UInt32, into out: inout [UInt8]) {
        let s: [UInt8] = [
            0, UInt8(serial >> 24), UInt8(truncatingIfNeeded: serial >> 16), UInt8(truncatingIfNeeded: serial >> 8),
            UInt8(truncatingIfNeeded: serial),
        ]
        var magnitude = Array(s.drop { $0 == 0 })
        if magnitude.isEmpty { magnitude = [0] }
        if magnitude[0] & 0x80 != 0 { magnitude.insert(0, at: 0) }
        out.append(0x30)
        out.append(UInt8(2 + magnitude.count + 15))
        out.append(0x02)
        out.append(UInt8(magnitude.count))
        out.append(contentsOf: magnitude)
        out.append(0x17)
        out.append(13)
        out.append(contentsOf: Array("250101000000Z".utf8))
    }

    func testRFC5280StructureRulesAreEnforced() throws {
        var one: [UInt8] = []
        CRLParsingTests.entry(7, into: &one)
        XCTAssertNoThrow(try CRL(derEncoded: CRLParsingTests.syntheticCRL(entries: one)))
        XCTAssertEqual(try CRL(derEncoded: CRLParsingTests.syntheticCRL(version: nil, entries: one)).version, 1)
        // §5.1.2.6: an empty revokedCertificates must be absent.
        XCTAssertThrowsError(try CRL(derEncoded: CRLParsingTests.syntheticCRL(entries: [])))
        // §5.1.2.1: version, when present, is v2; v1 is never encoded.
        XCTAssertThrowsError(try CRL(derEncoded: CRLParsingTests.syntheticCRL(version: 0, entries: one)))
        XCTAssertThrowsError(try CRL(derEncoded: CRLParsingTests.syntheticCRL(version: 2, entries: one)))
        // crlExtensions need v2 and must not be empty (§5.1).
        let crlNumber5: [UInt8] = [0x30, 0x0A, 0x06, 0x03, 0x55, 0x1D, 0x14, 0x04, 0x03, 0x02, 0x01, 0x05]
        XCTAssertThrowsError(try CRL(derEncoded: CRLParsingTests.syntheticCRL(version: nil, entries: one, extensions: crlNumber5))) {
            XCTAssertEqual(($0 as? X509Error)?.code, .unsupportedVersion)
        }
        XCTAssertThrowsError(try CRL(derEncoded: CRLParsingTests.syntheticCRL(entries: one, extensions: [])))
        // A negative cRLNumber, a non-critical deltaCRLIndicator, a duplicate extension.
        XCTAssertEqual(try CRL(derEncoded: CRLParsingTests.syntheticCRL(entries: one, extensions: crlNumber5)).crlNumber?.description, "5")
        let negative: [UInt8] = [0x30, 0x0A, 0x06, 0x03, 0x55, 0x1D, 0x14, 0x04, 0x03, 0x02, 0x01, 0xFB]
        XCTAssertThrowsError(try CRL(derEncoded: CRLParsingTests.syntheticCRL(entries: one, extensions: negative)))
        let deltaNotCritical: [UInt8] = [0x30, 0x0A, 0x06, 0x03, 0x55, 0x1D, 0x1B, 0x04, 0x03, 0x02, 0x01, 0x05]
        XCTAssertThrowsError(try CRL(derEncoded: CRLParsingTests.syntheticCRL(entries: one, extensions: deltaNotCritical)))
        XCTAssertThrowsError(try CRL(derEncoded: CRLParsingTests.syntheticCRL(entries: one, extensions: crlNumber5 + crlNumber5))) {
            XCTAssertEqual(($0 as? X509Error)?.code, .duplicateExtension)
        }
        // An unknown critical CRL extension parses and is reported (the CRL is then unusable, §5.2).
        let unknownCritical: [UInt8] = [0x30, 0x0C, 0x06, 0x03, 0x2A, 0x03, 0x04, 0x01, 0x01, 0xFF, 0x04, 0x02, 0x05, 0x00]
        XCTAssertEqual(
            try CRL(derEncoded: CRLParsingTests.syntheticCRL(entries: one, extensions: unknownCritical)).unhandledCriticalExtensions,
            [[1, 2, 3, 4]])
        // A UTCTime without seconds is not the DER form.
        XCTAssertThrowsError(try CRL(derEncoded: CRLParsingTests.syntheticCRL(entries: one, thisUpdate: "2501010000Z")))
    }

    /// A hostile CRL: `count` entries. Parsing keeps 24 bytes per entry beyond the DER
    /// (asserted from the index sizes), and each lookup is a binary search (asserted by the
    /// number of probes, ≤ ⌈log2 n⌉ + 1).
    func testMillionEntryCRLIsParsedInLinearMemoryAndLookedUpByBinarySearch() throws {
        // Release (what CI runs): a million entries; debug builds are 10–50× slower, so fewer.
        #if DEBUG
        let count = 200_000
        #else
        let count = 1_000_000
        #endif
        var entries: [UInt8] = []
        entries.reserveCapacity(count * 22)
        // Serials in a scrambled order (a bijection of 1…count), so the index really sorts.
        for i in 0..<UInt64(count) { CRLParsingTests.entry(UInt32(i * 7919 % UInt64(count) + 1), into: &entries) }
        let der = CRLParsingTests.syntheticCRL(entries: entries)
        let crl = try CRL(derEncoded: der)
        XCTAssertEqual(crl.entryCount, count)
        XCTAssertEqual(MemoryLayout<CRL.EntryRecord>.stride, 20)
        // At most 30 bytes per entry beyond the DER (records reserved from the list's size).
        XCTAssertLessThanOrEqual(crl.records.capacity * 20 + crl.sortedRecords.capacity * 4, 30 * count)
        var probeLimit = 1
        while (1 << (probeLimit - 1)) < count { probeLimit += 1 }
        for serial: UInt32 in [1, 2, UInt32(count / 2), UInt32(count), 12_345] {
            var magnitude = ASN1Integer(Int64(serial)).twosComplementBytes
            let (found, probes) = crl.findCountingProbes(serialNumber: magnitude, issuer: 0)
            XCTAssertNotNil(found, "serial \(serial)")
            XCTAssertLessThanOrEqual(probes, probeLimit)
            XCTAssertEqual(crl.revokedEntry(serialNumber: magnitude, certificateIssuer: crl.issuer)?.serialNumber, magnitude)
            magnitude = ASN1Integer(Int64(serial) + Int64(count)).twosComplementBytes
            XCTAssertNil(crl.revokedEntry(serialNumber: magnitude, certificateIssuer: crl.issuer))
        }
        // The bounds are typed failures.
        XCTAssertThrowsError(try CRL(derEncoded: der, limits: .init(maximumEntries: count - 1))) {
            XCTAssertEqual(($0 as? X509Error)?.code, .limitExceeded)
        }
        XCTAssertThrowsError(try CRL(derEncoded: der, limits: .init(maximumBytes: der.count - 1))) {
            XCTAssertEqual(($0 as? X509Error)?.code, .limitExceeded)
        }
    }
}
