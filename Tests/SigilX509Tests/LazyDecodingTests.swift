import Foundation
import SigilASN1
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

@testable import SigilX509

/// Parsing validates everything and builds some values only on first access (names' RDNs and
/// strings): here the values read lazily equal a full eager decoding on every certificate fixture
/// in the repository, and the validating pass refuses exactly what the full decoding refuses,
/// with the same error, on thousands of mutated names.
final class LazyDecodingTests: XCTestCase {
    /// Every certificate file in the repository: NIST PKITS (Vectors/pkits/certs) and the DER
    /// certificates among the test fixtures.
    static func repositoryCertificates() throws -> [(name: String, der: [UInt8])] {
        var files: [(String, [UInt8])] = []
        let pkits = TestPaths.vectors("pkits/certs")
        for name in try FileManager.default.contentsOfDirectory(atPath: pkits.path).sorted() where name.hasSuffix(".crt") {
            files.append((name, Array(try Data(contentsOf: pkits.appendingPathComponent(name)))))
        }
        for name in ["ec-p256-cert.der", "ec-p384-ca-cert.der", "rsa-2048-cert.der"] {
            files.append((name, Array(try Data(contentsOf: TestPaths.fixtures("SigilASN1Tests", name)))))
        }
        return files
    }

    /// The full decoding of a Name, as parsing did before names became lazy.
    private func eagerRDNs(_ name: DistinguishedName) throws -> [RelativeDistinguishedName] {
        try DistinguishedName.decodeRDNs(DER.parse(name.derBytes))
    }

    func testLazyNamesEqualEagerDecodingOnEveryFixture() throws {
        let files = try LazyDecodingTests.repositoryCertificates()
        XCTAssertGreaterThan(files.count, 400)
        var parsed = 0
        var attributes = 0
        for (name, der) in files {
            guard let certificate = try? Certificate(derEncoded: der) else { continue }
            parsed += 1
            // The byte views kept as ranges are the tree's TBSCertificate and SubjectPublicKeyInfo.
            let tbs = try XCTUnwrap(DER.parse(der).children.first { _ in true })
            XCTAssertEqual(certificate.tbsBytes, Array(tbs.encodedBytes), name)
            let spkiNode = try XCTUnwrap(
                tbs.children.first {
                    $0.identifier == .sequence && $0.children.first { _ in true }?.identifier == .sequence
                        && $0.children.dropFirst().first { _ in true }?.identifier == .bitString
                })
            XCTAssertEqual(certificate.subjectPublicKeyInfoBytes, Array(spkiNode.encodedBytes), name)
            XCTAssertEqual(
                try SubjectPublicKeyInfo(derEncoded: certificate.subjectPublicKeyInfoBytes), certificate.subjectPublicKeyInfo, name)
            for dn in [certificate.issuer, certificate.subject] {
                let eager = try eagerRDNs(dn)
                XCTAssertEqual(dn.rdns, eager, name)
                attributes += eager.reduce(0) { $0 + $1.attributes.count }
                // The strings read lazily are the eager decoder's, attribute by attribute.
                for (rdn, eagerRDN) in zip(dn.rdns, eager) {
                    XCTAssertEqual(rdn.attributes.map(\.stringValue), eagerRDN.attributes.map(\.stringValue), name)
                }
            }
            // Names inside extensions (directoryName in SAN, AKI, CRL distribution points) too.
            for general in certificate.subjectAlternativeNames + (certificate.authorityKeyIdentifier?.authorityCertIssuer ?? [])
                + certificate.crlDistributionPoints.flatMap({ ($0.fullName ?? []) + ($0.cRLIssuer ?? []) })
            {
                if case .directoryName(let dn) = general { XCTAssertEqual(dn.rdns, try eagerRDNs(dn), name) }
            }
        }
        XCTAssertGreaterThan(parsed, 400, "PKITS and the fixtures parse")
        XCTAssertGreaterThan(attributes, 1000)
    }

    /// Seeded mutations of every fixture's issuer and subject encodings: whenever the mutant still
    /// parses as DER, the validating pass and the full decoding agree — both accept (and then the
    /// lazy RDNs equal the eager ones) or both refuse with the same error code.
    func testNameValidationRefusesExactlyWhatDecodingRefuses() throws {
        var names: [[UInt8]] = []
        for (_, der) in try LazyDecodingTests.repositoryCertificates().prefix(80) {
            guard let certificate = try? Certificate(derEncoded: der) else { continue }
            names.append(certificate.issuer.derBytes)
            names.append(certificate.subject.derBytes)
        }
        // Names with the rarer string types and shapes, encoded here.
        names.append(Self.name([(0x1E, [0x00, 0x41, 0xD8, 0x00])]))  // BMPString with a surrogate
        names.append(Self.name([(0x1C, [0x00, 0x00, 0x00, 0x41])]))  // UniversalString
        names.append(Self.name([(0x14, [0xE9, 0x41])]))  // TeletexString
        names.append(Self.name([(0x0C, [0xC3, 0x28])]))  // invalid UTF-8
        names.append(Self.name([(0x13, [0x41, 0x2A])]))  // PrintableString with '*'
        var rng = SeededGenerator(seed: 0x4E41_4D45)
        var compared = 0
        var accepted = 0
        var refused = 0
        for round in 0..<20_000 {
            var bytes = names[round % names.count]
            let position = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 4 {
            case 0: bytes[position] ^= UInt8(1 << (rng.next() % 8))
            case 1: bytes[position] = UInt8(truncatingIfNeeded: rng.next())
            case 2: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)
            default: bytes.remove(at: position)
            }
            guard let node = try? DER.parse(bytes) else { continue }
            compared += 1
            let lazy = Result { try DistinguishedName(node: node) }
            let eager = Result { try DistinguishedName.decodeRDNs(node) }
            switch (lazy, eager) {
            case (.success(let name), .success(let rdns)):
                accepted += 1
                XCTAssertEqual(name.rdns, rdns, Hex.encode(bytes))
            case (.failure(let a), .failure(let b)):
                refused += 1
                XCTAssertEqual((a as? ASN1Error)?.code, (b as? ASN1Error)?.code, Hex.encode(bytes))
                XCTAssertEqual("\(a)", "\(b)", Hex.encode(bytes))
            default:
                XCTFail("validation and decoding disagree on \(Hex.encode(bytes)): \(lazy) vs \(eager)")
            }
        }
        XCTAssertGreaterThan(accepted, 500)
        XCTAssertGreaterThan(refused, 500)
        XCTAssertGreaterThan(compared, 5000)
    }

    /// A Name of one RDN per (string tag, content), the attribute type commonName.
    static func name(_ values: [(UInt8, [UInt8])]) -> [UInt8] {
        func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag, UInt8(content.count)] + content }
        let rdns = values.map { tlv(0x31, tlv(0x30, tlv(0x06, [0x55, 0x04, 0x03]) + tlv($0.0, $0.1))) }
        return tlv(0x30, rdns.flatMap { $0 })
    }
}
