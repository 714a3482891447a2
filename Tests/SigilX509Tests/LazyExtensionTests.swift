import Foundation
import SigilASN1
import SigilTestSupport
import XCTest

@testable import SigilX509

/// Extension values are validated at parse time and decoded on first access. Here the lazy parse
/// and the eager one (every known value checked by its full decoder, as parsing did before) agree
/// on every certificate in the repository and on mutants whose extension values were altered:
/// the same certificates accepted, the same error for the others, and for accepted ones every
/// extension's value read lazily equal to its full decoding.
final class LazyExtensionTests: XCTestCase {
    /// The repository's certificates: PKITS and the ASN.1 fixtures, plus Apple's real certificates.
    private func corpus() throws -> [(name: String, der: [UInt8])] {
        var files = try LazyDecodingTests.repositoryCertificates()
        let apple = try TestPaths.requireAppleVectors().appendingPathComponent("real")
        for folder in ["apple-pki", "from-apple-library-tests"] {
            let url = apple.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            where name.hasSuffix(".cer") || name.hasSuffix(".der") {
                files.append((name, Array(try Data(contentsOf: url.appendingPathComponent(name)))))
            }
        }
        return files
    }

    /// Parses `der` lazily and eagerly; fails the test unless both agree. Returns whether it parsed.
    @discardableResult
    private func compare(_ der: [UInt8], _ label: @autoclosure () -> String) -> Bool {
        let lazy = Result { () throws(X509Error) in try Certificate(derEncoded: der) }
        let eager = Result { () throws(X509Error) in try Certificate(derEncoded: der, decodingExtensionsEagerly: true) }
        switch (lazy, eager) {
        case (.success(let certificate), .success(let reference)):
            XCTAssertEqual(certificate.extensions, reference.extensions, label())
            for e in certificate.extensions {
                // The value read lazily is the full decoder's (which must succeed on what parsed).
                guard let decoded = try? ExtensionValue(oid: e.oid, der: e.rawValue) else {
                    XCTFail("\(label()): \(e.name) parsed but does not decode")
                    continue
                }
                XCTAssertEqual(e.value, decoded, "\(label()) \(e.name)")
                if ExtensionValue.Kind(e.oid) != nil { XCTAssertNotEqual(e.value, .unknown, "\(label()) \(e.name)") }
                // Read twice (the second from the cache): the same value.
                XCTAssertEqual(e.value, e.value, label())
            }
            return true
        case (.failure(let error), .failure(let reference)):
            XCTAssertEqual(error.description, reference.description, label())
            return false
        case (.success, .failure(let reference)):
            XCTFail("\(label()): the lazy parse accepts what the eager parse refuses (\(reference))")
        case (.failure(let error), .success):
            XCTFail("\(label()): the lazy parse refuses what the eager parse accepts (\(error))")
        }
        return false
    }

    /// Where each extension's extnID content and extnValue content lie in `der`.
    private func extensionRanges(_ der: [UInt8]) throws -> [(oid: Range<Int>, value: Range<Int>)] {
        let tbs = try XCTUnwrap(DER.parse(der).children.first { _ in true })
        guard let tagged = tbs.children.first(where: { $0.identifier == .contextSpecific(3) }),
            let list = tagged.children.first(where: { _ in true })
        else { return [] }
        return list.children.compactMap { e in
            let parts = Array(e.children)
            guard let oid = parts.first, let value = parts.last, value.identifier == .octetString else { return nil }
            return (oid.contentBytes.indices, value.contentBytes.indices)
        }
    }

    func testLazyExtensionsEqualEagerDecodingOnEveryCertificate() throws {
        let files = try corpus()
        XCTAssertGreaterThan(files.count, 400)
        var parsed = 0
        var values = 0
        for (name, der) in files where compare(der, name) {
            parsed += 1
            values += try Certificate(derEncoded: der).extensions.count
        }
        XCTAssertGreaterThan(parsed, 390)
        XCTAssertGreaterThan(values, 1500)
    }

    /// Seeded mutants of every certificate's extension values: bit flips and byte changes inside
    /// a value (the certificate's own framing intact, so the value's validator is what decides),
    /// and an id-ce extension relabelled as another known one (a value read as a foreign type).
    func testLazyAndEagerParsingAgreeOnMutatedExtensions() throws {
        let files = try corpus()
        var rng = SeededGenerator(seed: 0x1A2E_E87E)
        // id-ce arcs of the extensions Sigil decodes (2.5.29.x: content 55 1D x).
        let idCE: [UInt8] = [14, 15, 17, 18, 19, 30, 31, 32, 33, 35, 36, 37, 54]
        var total = 0
        var accepted = 0
        var refused = 0
        for (name, original) in files {
            let ranges = try extensionRanges(original).filter { !$0.value.isEmpty }
            guard !ranges.isEmpty else { continue }
            for round in 0..<60 {
                var der = original
                let target = ranges[Int(rng.next() % UInt64(ranges.count))]
                let position = target.value.lowerBound + Int(rng.next() % UInt64(target.value.count))
                switch rng.next() % 4 {
                case 0: der[position] ^= UInt8(1 << (rng.next() % 8))
                case 1: der[position] = UInt8(truncatingIfNeeded: rng.next())
                case 2:
                    // Two changes in the same value.
                    der[position] ^= UInt8(1 << (rng.next() % 8))
                    let second = target.value.lowerBound + Int(rng.next() % UInt64(target.value.count))
                    der[second] = UInt8(truncatingIfNeeded: rng.next())
                default:
                    let oid = target.oid
                    guard oid.count == 3, der[oid.lowerBound] == 0x55, der[oid.lowerBound + 1] == 0x1D else {
                        der[position] ^= 0x01
                        break
                    }
                    der[oid.upperBound - 1] = idCE[Int(rng.next() % UInt64(idCE.count))]
                }
                total += 1
                if compare(der, "\(name) mutant \(round)") { accepted += 1 } else { refused += 1 }
            }
        }
        XCTAssertGreaterThan(total, 20_000)
        XCTAssertGreaterThan(accepted, 2_000, "enough mutants parse to compare decoded values")
        XCTAssertGreaterThan(refused, 2_000, "enough mutants are refused to compare errors")
        print("extension mutants: \(total), \(accepted) accepted and \(refused) refused alike by the lazy and eager parses")
    }

    /// `Kind` recognises exactly the OIDs of `ExtensionValue.known`, each as its own kind.
    func testKindsMatchTheKnownList() throws {
        for (index, oid) in ExtensionValue.known.enumerated() {
            XCTAssertEqual(ExtensionValue.Kind(oid)?.rawValue, index, oid.dotted)
            // Recognised from its encoding too.
            XCTAssertEqual(ExtensionValue.Kind(encoding: oid.contentBytes[...])?.rawValue, index, oid.dotted)
        }
        // Every three-octet 55 1D n: recognised exactly when it decodes to a known OID.
        for n in 0...255 {
            let content: [UInt8] = [0x55, 0x1D, UInt8(n)]
            let decoded = try? ASN1ObjectIdentifier(node: DER.parse([0x06, 0x03] + content))
            XCTAssertEqual(ExtensionValue.Kind(encoding: content[...]), decoded.flatMap { ExtensionValue.Kind($0) }, "\(n)")
        }
        for dotted in [
            "2.5.29.20", "2.5.29.16", "2.5.29.9", "2.5.29.46", "2.5.29", "2.5.29.19.1", "2.5.28.19", "1.3.6.1.5.5.7.1.2",
            "1.3.6.1.5.5.7.1.1.1",
        ] {
            let oid = try ASN1ObjectIdentifier(dotted: dotted)
            XCTAssertNil(ExtensionValue.Kind(oid), dotted)
            XCTAssertNil(ExtensionValue.Kind(encoding: oid.contentBytes[...]), dotted)
        }
    }

    /// Decoded values are kept once read and read safely from several threads at once.
    func testConcurrentFirstReadsAgree() throws {
        let der = Array(
            try Data(contentsOf: try TestPaths.requireAppleVectors().appendingPathComponent("real/apple-pki/AppleWWDRCAG6.cer")))
        for _ in 0..<20 {
            let certificate = try Certificate(derEncoded: der)
            let expected = try certificate.extensions.map { try ExtensionValue(oid: $0.oid, der: $0.rawValue) }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                XCTAssertEqual(certificate.extensions.map(\.value), expected)
            }
        }
    }
}
