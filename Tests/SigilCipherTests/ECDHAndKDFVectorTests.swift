import Foundation
import SigilCipher
import SigilCore
import SigilTestSupport
import XCTest

/// ECDH on P-256 (`ECDSAPrivateKey.sharedSecret(with:)`) against NIST CAVP KAS ECC (ZZ only) and
/// Wycheproof's ECDH ecpoint group, and the one-step KDF against CAVP KAS ECC KDFConcat.
final class ECDHAndKDFVectorTests: XCTestCase {
    /// The records of one `[EC - SHAxxx]` section (P-256) of a KAS validity file.
    private func p256Records(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOf: TestPaths.vectors("nist-cavp-kas/\(name)"), encoding: .utf8)
        var records: [[String: String]] = []
        var current: [String: String] = [:]
        var inP256 = false
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                if line.contains(" - SHA") { inP256 = line.hasPrefix("[EC - SHA256]") }
                continue
            }
            guard inP256 else { continue }
            if line.isEmpty {
                if current["Result"] != nil { records.append(current) }
                current = [:]
            } else if let eq = line.firstIndex(of: "=") {
                current[line[..<eq].trimmingCharacters(in: .whitespaces)] =
                    line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            }
        }
        if current["Result"] != nil { records.append(current) }
        return records
    }

    private func bytes(_ record: [String: String], _ key: String) -> [UInt8] { Hex.decode(record[key] ?? "") ?? [] }

    private func point(_ record: [String: String], _ prefix: String) -> ECDSAPublicKey? {
        try? ECDSAPublicKey(x: bytes(record, prefix + "x"), y: bytes(record, prefix + "y"), curve: .p256)
    }

    /// ZZ only: for a passing record both parties compute Z; each failing record's defect (a CAVS or
    /// IUT public key off the curve, the IUT's private key changed, Z changed) is found.
    func testKASZZOnlyP256() throws {
        var passed = 0
        var failed = 0
        for file in ["KASValidityTest_ECCStaticUnified_NOKC_ZZOnly_init.fax", "KASValidityTest_ECCStaticUnified_NOKC_ZZOnly_resp.fax"] {
            for record in try p256Records(file) {
                let z = bytes(record, "Z")
                let iut = try? ECDSAPrivateKey(rawRepresentation: bytes(record, "dsIUT"), curve: .p256)
                let cavsPoint = point(record, "QsCAVS")
                let iutPoint = point(record, "QsIUT")
                let computed = cavsPoint.flatMap { peer in iut.flatMap { try? $0.sharedSecret(with: peer) } }
                if record["Result"]!.hasPrefix("P") {
                    XCTAssertEqual(computed, z, "COUNT \(record["COUNT"]!)")
                    XCTAssertEqual(iutPoint, iut?.publicKey)
                    XCTAssertEqual(HashAlgorithm.sha256.hash(z), bytes(record, "CAVSHashZZ"))
                    let cavs = try ECDSAPrivateKey(rawRepresentation: bytes(record, "dsCAVS"), curve: .p256)
                    XCTAssertEqual(try cavs.sharedSecret(with: iutPoint!), z)
                    passed += 1
                } else {
                    let detected = cavsPoint == nil || iutPoint == nil || iutPoint != iut?.publicKey || computed != z
                    XCTAssertTrue(detected, "COUNT \(record["COUNT"]!): \(record["Result"]!)")
                    failed += 1
                }
            }
        }
        print("CAVP KAS ECC ZZ only (P-256): \(passed) pass, \(failed) fail records")
        XCTAssertGreaterThan(failed, 5)
    }

    /// KDFConcat: Z by ECDH and DKM = KDF(Z, OI) for every passing record; each failing record's
    /// defect is found (a key, Z, OI or DKM that does not fit; a changed tag is key confirmation,
    /// which this test has no part in, so such records are counted apart).
    func testKASKDFConcatP256() throws {
        var passed = 0
        var failed = 0
        var tagOnly = 0
        for record in try p256Records("KASValidityTest_ECCStaticUnified_KDFConcat_NOKC_init.fax") {
            let z = bytes(record, "Z")
            let dkm = bytes(record, "DKM")
            let iut = try? ECDSAPrivateKey(rawRepresentation: bytes(record, "dsIUT"), curve: .p256)
            let cavsPoint = point(record, "QsCAVS")
            let iutPoint = point(record, "QsIUT")
            let computed = cavsPoint.flatMap { peer in iut.flatMap { try? $0.sharedSecret(with: peer) } }
            let derived = try ConcatKDF.deriveKey(sharedSecret: z, fixedInfo: bytes(record, "OI"), length: dkm.count)
            if record["Result"]!.hasPrefix("P") {
                XCTAssertEqual(computed, z, "COUNT \(record["COUNT"]!)")
                XCTAssertEqual(derived, dkm, "COUNT \(record["COUNT"]!)")
                passed += 1
            } else if record["Result"]!.contains("Tag changed") || record["Result"]!.contains("MACData") {
                tagOnly += 1
            } else {
                let detected =
                    cavsPoint == nil || iutPoint == nil || iutPoint != iut?.publicKey || computed != z || derived != dkm
                XCTAssertTrue(detected, "COUNT \(record["COUNT"]!): \(record["Result"]!)")
                failed += 1
            }
        }
        print("CAVP KAS ECC KDFConcat (P-256, SHA-256): \(passed) pass, \(failed) fail, \(tagOnly) tag-only records")
        XCTAssertGreaterThan(passed, 5)
        XCTAssertGreaterThan(failed, 5)
    }

    private struct WycheproofECDH: Decodable {
        struct Group: Decodable { let tests: [Test] }
        struct Test: Decodable {
            let tcId: Int
            let `public`: String
            let `private`: String
            let shared: String
            let result: String
        }
        let testGroups: [Group]
    }

    func testWycheproofECDHP256ECPoint() throws {
        let file = try JSONDecoder().decode(
            WycheproofECDH.self, from: Data(contentsOf: TestPaths.vectors("wycheproof/ecdh_secp256r1_ecpoint_test.json")))
        var counts: [String: Int] = [:]
        for test in file.testGroups.flatMap(\.tests) {
            var scalar = Hex.decode(test.private)!
            while scalar.count > 32, scalar.first == 0 { scalar.removeFirst() }
            scalar = [UInt8](repeating: 0, count: max(0, 32 - scalar.count)) + scalar
            let key = try ECDSAPrivateKey(rawRepresentation: scalar, curve: .p256)
            let shared: [UInt8]?
            do {
                let peer = try ECDSAPublicKey(sec1Representation: Hex.decode(test.public)!, curve: .p256)
                shared = try key.sharedSecret(with: peer)
            } catch {
                shared = nil
            }
            switch test.result {
            case "valid": XCTAssertEqual(shared, Hex.decode(test.shared)!, "tcId \(test.tcId)")
            case "invalid": XCTAssertNil(shared, "tcId \(test.tcId)")
            default:
                // Acceptable: a compressed point; Sigil decompresses it and must then agree.
                if let shared { XCTAssertEqual(shared, Hex.decode(test.shared)!, "tcId \(test.tcId)") }
            }
            counts[test.result, default: 0] += 1
        }
        print("Wycheproof ECDH P-256 ecpoint: \(counts.sorted { $0.key < $1.key })")
        XCTAssertEqual(counts.values.reduce(0, +), 355)
    }

    func testKDFRefusesZeroLength() {
        XCTAssertThrowsError(try ConcatKDF.deriveKey(sharedSecret: [1], fixedInfo: [], length: 0))
        XCTAssertEqual(try ConcatKDF.deriveKey(sharedSecret: [1], fixedInfo: [2], length: 40).count, 40)
    }
}
