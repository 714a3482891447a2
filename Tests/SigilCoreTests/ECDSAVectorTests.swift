import Foundation
import SigilASN1
import SigilTestSupport
import XCTest

@testable import SigilCore

/// Published ECDSA vectors for P-256 and P-384: RFC 6979 A.2.5/A.2.6, NIST CAVP FIPS 186-4
/// SigVer and SigGen, and the Wycheproof P1363 groups. (SHA-224 cases are skipped and counted:
/// Sigil implements SHA-1/256/384/512 only, as Apple's formats need nothing else.)
final class ECDSAVectorTests: XCTestCase {
    static func hashAlgorithm(_ name: String) -> HashAlgorithm? {
        switch name.uppercased().replacingOccurrences(of: "-", with: "") {
        case "SHA1": .sha1
        case "SHA256": .sha256
        case "SHA384": .sha384
        case "SHA512": .sha512
        default: nil
        }
    }

    /// ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (strict DER) → (r, s) magnitudes.
    static func decodeDERSignature(_ der: [UInt8]) throws -> ([UInt8], [UInt8]) {
        try ASN1.sequence(DER.parse(der)) { reader in
            let r = try ASN1Integer(node: reader.next())
            let s = try ASN1Integer(node: reader.next())
            guard let rm = r.unsignedMagnitude, let sm = s.unsignedMagnitude else { throw ASN1Error(.invalidInteger, "negative") }
            return (rm, sm)
        }
    }

    /// PrivateKeyInfo { 0, AlgorithmIdentifier, OCTET STRING ECPrivateKey { 1, OCTET STRING d, … } } → d.
    static func scalarFromPKCS8(_ der: [UInt8]) throws -> [UInt8] {
        try ASN1.sequence(DER.parse(der)) { reader in
            _ = try reader.next(.integer)
            _ = try reader.next(.sequence)
            let inner = try ASN1OctetString(node: reader.next(.octetString)).bytes
            while reader.peek != nil { _ = try reader.next() }
            return try ASN1.sequence(DER.parse(inner)) { ec in
                _ = try ec.next(.integer)
                let d = try ASN1OctetString(node: ec.next(.octetString)).bytes
                while ec.peek != nil { _ = try ec.next() }
                return d
            }
        }
    }

    func testRFC6979Examples() throws {
        let text = try String(contentsOf: TestPaths.vectors("rfc6979/evppkey_ecdsa_rfc6979.txt"), encoding: .utf8)
        var checkedSign = 0
        var checkedVerify = 0
        var skippedSHA224 = 0
        for (title, curve) in [("P-256", ECCurve.p256), ("P-384", .p384)] {
            guard let start = text.range(of: "Title = RFC 6979 \(title) deterministic"),
                let end = text.range(of: "Title = ", range: start.upperBound..<text.endIndex)
            else {
                return XCTFail("no \(title) section")
            }
            let section = String(text[start.upperBound..<end.lowerBound])
            let pem = try XCTUnwrap(PEMDocument.parseAll(section).first { $0.label == "PRIVATE KEY" })
            let key = try ECDSAPrivateKey(rawRepresentation: try Self.scalarFromPKCS8(pem.derBytes), curve: curve)
            for block in section.components(separatedBy: "\n\n") {
                var fields: [String: String] = [:]
                for line in block.split(separator: "\n") {
                    let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if parts.count == 2 { fields[parts[0]] = parts[1] }
                }
                guard let input = fields["Input"], let output = fields["Output"].flatMap(Hex.decode) else { continue }
                let message = Array(input.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).utf8)
                let hashName = fields["DigestSign"] ?? fields["DigestVerify"] ?? ""
                guard let hash = Self.hashAlgorithm(hashName) else {
                    skippedSHA224 += 1
                    continue
                }
                let (r, s) = try Self.decodeDERSignature(output)
                let expected = try ECDSASignature(r: r, s: s, curve: curve)
                if fields["DigestSign"] != nil {
                    XCTAssertEqual(key.signature(for: message, hash: hash), expected, "\(title) \(hashName) \(input)")
                    checkedSign += 1
                } else {
                    let valid = key.publicKey.isValidSignatureVartime(expected, for: message, hash: hash)
                    XCTAssertEqual(valid, fields["Result"] != "VERIFY_ERROR", "\(title) \(hashName) \(input)")
                    checkedVerify += 1
                }
            }
        }
        // A.2.5 and A.2.6: 2 messages × 4 hashes × 2 curves signed.
        XCTAssertEqual(checkedSign, 16)
        XCTAssertGreaterThanOrEqual(checkedVerify, 32)
        XCTAssertEqual(skippedSHA224 % 3, 0)
    }

    private func cavpSections(_ file: String) throws -> [(curve: ECCurve, hash: HashAlgorithm, records: [[String: String]])] {
        let text = try String(contentsOf: TestPaths.vectors("nist-cavp-ecdsa/\(file)"), encoding: .utf8)
        var out: [(ECCurve, HashAlgorithm, [[String: String]])] = []
        var current: (ECCurve, HashAlgorithm)?
        var records: [[String: String]] = []
        var record: [String: String] = [:]
        func flush() {
            if !record.isEmpty {
                records.append(record)
                record = [:]
            }
        }
        func close() {
            flush()
            if let current { out.append((current.0, current.1, records)) }
            records = []
        }
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                close()
                let inside = line.dropFirst().dropLast().split(separator: ",").map(String.init)
                let curve: ECCurve? = inside.first == "P-256" ? .p256 : (inside.first == "P-384" ? .p384 : nil)
                if let curve, inside.count == 2, let hash = Self.hashAlgorithm(inside[1]) { current = (curve, hash) } else { current = nil }
            } else if line.isEmpty {
                flush()
            } else if let eq = line.firstIndex(of: "="), !line.hasPrefix("#") {
                record[line[..<eq].trimmingCharacters(in: .whitespaces)] = line[line.index(after: eq)...].trimmingCharacters(
                    in: .whitespaces)
            }
        }
        close()
        return out
    }

    private func padded(_ hex: String, _ curve: ECCurve) -> [UInt8] {
        let bytes = Array((Hex.decode(hex.count % 2 == 1 ? "0" + hex : hex) ?? []).drop { $0 == 0 })
        return [UInt8](repeating: 0, count: max(0, curve.byteCount - bytes.count)) + bytes
    }

    func testNISTSigVer() throws {
        var checked = 0
        for (curve, hash, records) in try cavpSections("SigVer.rsp") {
            for record in records {
                guard let msg = record["Msg"].flatMap(Hex.decode), let qx = record["Qx"], let qy = record["Qy"],
                    let r = record["R"], let s = record["S"], let result = record["Result"]
                else { continue }
                let expected = result.hasPrefix("P")
                let valid: Bool
                if let key = try? ECDSAPublicKey(x: padded(qx, curve), y: padded(qy, curve), curve: curve),
                    let signature = try? ECDSASignature(r: padded(r, curve), s: padded(s, curve), curve: curve)
                {
                    valid = key.isValidSignatureVartime(signature, for: msg, hash: hash)
                } else {
                    valid = false
                }
                XCTAssertEqual(valid, expected, "\(curve) \(hash) \(result)")
                checked += 1
            }
        }
        // 15 records for each of P-256 and P-384 × SHA-256/384/512.
        XCTAssertEqual(checked, 90)
    }

    func testNISTSigGenWithGivenNonce() throws {
        var checked = 0
        for (curve, hash, records) in try cavpSections("SigGen.txt") {
            for record in records {
                guard let msg = record["Msg"].flatMap(Hex.decode), let d = record["d"], let k = record["k"],
                    let qx = record["Qx"], let qy = record["Qy"], let r = record["R"], let s = record["S"]
                else { continue }
                let key = try ECDSAPrivateKey(rawRepresentation: padded(d, curve), curve: curve)
                XCTAssertEqual(key.publicKey.x, padded(qx, curve))
                XCTAssertEqual(key.publicKey.y, padded(qy, curve))
                let digest = hash.hash(msg)
                let produced: (r: [UInt8], s: [UInt8])?
                switch curve {
                case .p256: produced = Self.signWithNonce(ECDSAEngine<P256Curve>.self, padded(d, curve), padded(k, curve), digest)
                case .p384: produced = Self.signWithNonce(ECDSAEngine<P384Curve>.self, padded(d, curve), padded(k, curve), digest)
                }
                XCTAssertEqual(produced?.r, padded(r, curve), "\(curve) \(hash)")
                XCTAssertEqual(produced?.s, padded(s, curve), "\(curve) \(hash)")
                let signature = try ECDSASignature(r: padded(r, curve), s: padded(s, curve), curve: curve)
                XCTAssertTrue(key.publicKey.isValidSignatureVartime(signature, for: msg, hash: hash))
                checked += 1
            }
        }
        XCTAssertEqual(checked, 90)  // 15 records × P-256, P-384 × SHA-256, SHA-384, SHA-512
    }

    static func signWithNonce<C>(_ engine: ECDSAEngine<C>.Type, _ d: [UInt8], _ k: [UInt8], _ digest: [UInt8]) -> (r: [UInt8], s: [UInt8])?
    {
        let (scalar, _) = C.Scalar.fromBigEndian(d)
        let (nonce, _) = C.Scalar.fromBigEndian(k)
        return engine.sign(privateKey: scalar, nonce: nonce, digestScalar: engine.digestScalar(digest))
    }

    func testWycheproofP1363() throws {
        for (file, curve, hash) in [
            ("ecdsa_secp256r1_sha256_p1363_test", ECCurve.p256, HashAlgorithm.sha256),
            ("ecdsa_secp384r1_sha384_p1363_test", .p384, .sha384),
        ] {
            let counts = try WycheproofECDSA.run(file: file, curve: curve, hash: hash) { raw, _ in
                try? ECDSASignature(rawRepresentation: raw, curve: curve)
            }
            XCTAssertGreaterThan(counts.valid, 0, file)
            XCTAssertGreaterThan(counts.invalid, 0, file)
            XCTAssertEqual(counts.acceptable, 0, "\(file): no 'acceptable' cases expected in P1363 groups")
        }
    }
}

/// Runs a Wycheproof ECDSA verification file: every `valid` case must verify and every `invalid`
/// one must not; `acceptable` cases are counted (and must not crash) — see the issue note.
enum WycheproofECDSA {
    struct Counts { var valid = 0, invalid = 0, acceptable = 0 }

    static func run(
        file: String, curve: ECCurve, hash: HashAlgorithm,
        decode: ([UInt8], ECCurve) -> ECDSASignature?
    ) throws -> Counts {
        let data = try Data(contentsOf: TestPaths.vectors("wycheproof/\(file).json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let groups = try XCTUnwrap(json["testGroups"] as? [[String: Any]])
        var counts = Counts()
        for group in groups {
            let publicKey = try XCTUnwrap(group["publicKey"] as? [String: Any])
            let uncompressed = try XCTUnwrap((publicKey["uncompressed"] as? String).flatMap(Hex.decode))
            let key = try? ECDSAPublicKey(sec1Representation: uncompressed, curve: curve)
            for test in try XCTUnwrap(group["tests"] as? [[String: Any]]) {
                let id = test["tcId"] as? Int ?? -1
                let message = try XCTUnwrap((test["msg"] as? String).flatMap(Hex.decode))
                let sig = try XCTUnwrap((test["sig"] as? String).flatMap(Hex.decode))
                let result = test["result"] as? String ?? ""
                var verified = false
                if let key, let signature = decode(sig, curve) {
                    verified = key.isValidSignatureVartime(signature, for: message, hash: hash)
                }
                switch result {
                case "valid":
                    XCTAssertTrue(verified, "\(file) tcId \(id) (\(test["comment"] ?? "")) should verify")
                    counts.valid += 1
                case "invalid":
                    XCTAssertFalse(verified, "\(file) tcId \(id) (\(test["comment"] ?? "")) should be rejected")
                    counts.invalid += 1
                default:
                    counts.acceptable += 1
                }
            }
        }
        return counts
    }
}
