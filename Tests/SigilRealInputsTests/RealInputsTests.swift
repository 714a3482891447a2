import Foundation
import SigilASN1
import SigilAppAttest
import SigilAppStore
import SigilApplePKI
import SigilCBOR
import SigilCore
import SigilJOSE
import SigilPKCS7
import SigilReceipts
import SigilTestSupport
import SigilX509
import XCTest

/// Every file of the real data sets — what Apple's devices, Xcode and Apple's servers produced,
/// read through the one third-party data path — checked against a table of its expected verdict
/// and decoded facts (`Fixtures/real-inputs.json`). The data sets walked are the whole of
/// `appattest/` and `apple/real/`, and the Xcode and signed-data resources of Apple's library
/// (`apple/library/**/resources/xcode/`, `…/mock_signed_data/`). A file without a row fails the
/// test, and so does a row without a file: the corpus cannot grow unchecked.
///
/// The facts in the table were read with tools independent of Sigil (pyca/cryptography for the
/// certificates, `openssl cms` for the receipts' content, Python's JSON and CBOR readers for the
/// payloads, and the real-device data's own `cases.json`); the verdicts are the expected ones.
/// Each valid object is also checked to fail with one of its inputs changed.
final class RealInputsTests: XCTestCase {
    struct Table: Decodable {
        let files: [String: Row]
    }

    struct Row: Decodable {
        let kind: String
        let verdict: String?
        let facts: [String: JSONFact]?
        let `case`: String?
        let inputs: [String: String]?
        let type: String?
        let trust: String?
        let environment: String?
        let fitting: [String]?
    }

    /// A fact as the table writes it.
    enum JSONFact: Decodable, Equatable, CustomStringConvertible {
        case string(String)
        case number(Double)
        case bool(Bool)
        case strings([String])
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else {
                self = .strings(try container.decode([String].self))
            }
        }

        var description: String {
            switch self {
            case .string(let s): "\"\(s)\""
            case .number(let n): "\(n)"
            case .bool(let b): "\(b)"
            case .strings(let s): "\(s)"
            case .null: "null"
            }
        }
    }

    static let table = Result {
        try JSONDecoder().decode(
            Table.self, from: Data(contentsOf: TestPaths.fixtures("SigilRealInputsTests", "real-inputs.json")))
    }

    /// The data sets' root (the parent of `apple/` and `appattest/`).
    func vectors() throws -> (apple: URL, appAttest: URL) {
        (try TestPaths.requireAppleVectors(), try TestPaths.requireAppAttestVectors())
    }

    /// Every file of the walked data sets, by its table key ("appattest/…", "apple/…").
    func corpus() throws -> [String: URL] {
        let (apple, appAttest) = try vectors()
        var files: [String: URL] = [:]
        func walk(_ root: URL, prefix: String, include: (String) -> Bool) throws {
            let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted()
            for path in paths where include(path) {
                let url = root.appendingPathComponent(path)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                files[prefix + path] = url
            }
        }
        try walk(appAttest, prefix: "appattest/") { _ in true }
        try walk(apple, prefix: "apple/") {
            $0.hasPrefix("real/")
                || ($0.hasPrefix("library/") && ($0.contains("/resources/xcode/") || $0.contains("/resources/mock_signed_data/")))
        }
        return files
    }

    /// The corpus and the table name the same files: a new real file needs its row.
    func testEveryRealFileHasARowAndEveryRowAFile() throws {
        let table = try Self.table.get()
        let files = Set(try corpus().keys)
        let rows = Set(table.files.keys)
        XCTAssertEqual(files.subtracting(rows).sorted(), [], "real files without a row in Fixtures/real-inputs.json")
        XCTAssertEqual(rows.subtracting(files).sorted(), [], "rows whose file is not in the real data sets")
        XCTAssertGreaterThanOrEqual(files.count, 68)
        let kinds = Set(table.files.values.map(\.kind))
        XCTAssertEqual(
            kinds,
            [
                "provenance", "appattest-cases", "appattest-attestation", "appattest-assertion", "certificate", "jws", "app-receipt",
                "legacy-receipt",
            ])
    }

    /// Each row's check, by kind; the failures of all rows are reported together.
    func testEveryRealFileAgainstItsRow() async throws {
        let table = try Self.table.get()
        let files = try corpus()
        var checked: [String: Int] = [:]
        for (key, row) in table.files.sorted(by: { $0.key < $1.key }) {
            guard let url = files[key] else { continue }
            do {
                switch row.kind {
                case "provenance": XCTAssertFalse(try Data(contentsOf: url).isEmpty, key)
                case "appattest-cases": try checkCases(url, row, key)
                case "appattest-attestation": try checkAttestation(url, row, key)
                case "appattest-assertion": try checkAssertion(url, row, key)
                case "certificate": try checkCertificate(url, row, key)
                case "jws": try await checkJWS(url, row, key)
                case "app-receipt": try checkAppReceipt(url, row, key)
                case "legacy-receipt": try checkLegacyReceipt(url, row, key)
                default: XCTFail("\(key): unknown kind \(row.kind)")
                }
                checked[row.kind, default: 0] += 1
            } catch {
                XCTFail("\(key): \(error)")
            }
        }
        XCTAssertEqual(checked.values.reduce(0, +), files.count)
    }

    // MARK: - Facts

    func expect(_ row: Row, _ key: String, _ actual: [String: JSONFact], file: StaticString = #filePath, line: UInt = #line) {
        let expected = row.facts ?? [:]
        for (name, value) in expected {
            XCTAssertEqual(actual[name], value, "\(key): fact \(name)", file: file, line: line)
        }
        XCTAssertEqual(
            Set(actual.keys).subtracting(expected.keys).sorted(), [], "\(key): facts read but not in the row", file: file, line: line)
    }

    func fact(_ value: String?) -> JSONFact { value.map(JSONFact.string) ?? .null }
    func fact(_ value: Int64) -> JSONFact { .number(Double(value)) }

    // MARK: - App Attest

    struct Case {
        let entry: [String: Any]
        var appID: AppAttestAppID {
            let text = entry["appId"] as? String ?? ""
            guard let dot = text.firstIndex(of: ".") else { return AppAttestAppID(teamID: text, bundleID: "") }
            return AppAttestAppID(teamID: String(text[..<dot]), bundleID: String(text[text.index(after: dot)...]))
        }
        func hex(_ name: String) -> [UInt8] { Hex.decode(entry[name] as? String ?? "") ?? [] }
        var environment: AppAttestEnvironment { AppAttestEnvironment(rawValue: entry["environment"] as? String ?? "") ?? .production }
        var chainVerifiedAt: Int64 {
            let text = (entry["chainVerifiedAt"] as? String ?? "").replacingOccurrences(of: "+00:00", with: "Z")
            return ReceiptAttribute.parseDate(text) ?? 0
        }
    }

    func cases() throws -> [String: Case] {
        let url = try vectors().appAttest.appendingPathComponent("real-devices/cases.json")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let entries = try XCTUnwrap(document["cases"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: entries.map { ($0["id"] as? String ?? "", Case(entry: $0)) })
    }

    func checkCases(_ url: URL, _ row: Row, _ key: String) throws {
        let all = try cases()
        expect(row, key, ["cases": .number(Double(all.count))])
        for (id, entry) in all {
            for member in ["attestation", "assertion"] {
                guard let file = entry.entry[member] as? String else { continue }
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: url.deletingLastPathComponent().appendingPathComponent(file).path),
                    "\(id): \(file)")
            }
        }
    }

    func appAttestRoot() throws -> Certificate {
        let pem = try String(contentsOf: vectors().appAttest.appendingPathComponent("Apple_App_Attestation_Root_CA.pem"), encoding: .utf8)
        return try Certificate(derEncoded: try XCTUnwrap(PEMDocument.parseAll(pem).first).derBytes)
    }

    func appleRootG3() throws -> Certificate {
        try Certificate(derEncoded: Array(Data(contentsOf: vectors().apple.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer"))))
    }

    func checkAttestation(_ url: URL, _ row: Row, _ key: String) throws {
        let appID: AppAttestAppID
        let environment: AppAttestEnvironment
        let clientDataHash: [UInt8]
        let time: Int64
        if let id = row.case {
            let entry = try XCTUnwrap(try cases()[id], "\(key): no case \(id) in cases.json")
            (appID, environment, clientDataHash, time) = (
                entry.appID, entry.environment, entry.hex("attestationClientDataHash"), entry.chainVerifiedAt
            )
        } else {
            let inputs = try XCTUnwrap(row.inputs, "\(key): neither case nor inputs")
            let text = inputs["appId"] ?? ""
            let dot = try XCTUnwrap(text.firstIndex(of: "."))
            appID = AppAttestAppID(teamID: String(text[..<dot]), bundleID: String(text[text.index(after: dot)...]))
            environment = try XCTUnwrap(AppAttestEnvironment(rawValue: inputs["environment"] ?? ""))
            clientDataHash = try XCTUnwrap(Hex.decode(inputs["clientDataHash"] ?? ""))
            time = try XCTUnwrap(ReceiptAttribute.parseDate(inputs["at"] ?? ""))
        }
        let object = Array(try Data(contentsOf: url))
        let verifier = try AttestationVerifier(appAttestationRoot: try appAttestRoot(), appID: appID, environment: environment)
        XCTAssertEqual(row.verdict, "valid", key)
        let verified = try verifier.verify(object, clientDataHash: clientDataHash, at: time)
        let receipt = try AttestationReceiptVerifier(trustedRoots: [try appleRootG3()], appID: appID).verify(
            verified.receipt, attestedPublicKey: verified.publicKey)
        var facts: [String: JSONFact] = [
            "keyId": .string(Base64.encode(verified.keyID)), "counter": fact(Int64(verified.counter)),
            "receiptType": .string(receipt.receipt.receiptType), "receiptCreationTime": .string(receipt.receipt.creationTime.text),
        ]
        if row.case != nil {
            facts["environment"] = .string(verified.environment.rawValue)
            facts["osVersion"] = fact(verified.certificateInfo.osVersion)
            facts["receiptEnvironment"] = fact(receipt.receipt.environment)
        } else {
            facts["validationCategory"] = fact(verified.policyReport.validationCategory.map { Int64($0.rawValue) } ?? -1)
            facts["bundleVersion"] = fact(verified.policyReport.bundleVersion)
        }
        expect(row, key, facts)
        // One input changed, one refusal each.
        var otherHash = clientDataHash
        otherHash[0] ^= 1
        XCTAssertEqual(code { _ = try verifier.verify(object, clientDataHash: otherHash, at: time) }, .nonceMismatch, key)
        let otherEnvironment: AppAttestEnvironment = environment == .production ? .development : .production
        XCTAssertEqual(
            code {
                _ = try AttestationVerifier(appAttestationRoot: try self.appAttestRoot(), appID: appID, environment: otherEnvironment)
                    .verify(object, clientDataHash: clientDataHash, at: time)
            }, .environmentMismatch, key)
        XCTAssertEqual(
            code {
                _ = try AttestationVerifier(
                    appAttestationRoot: try self.appAttestRoot(),
                    appID: AppAttestAppID(teamID: appID.teamID, bundleID: appID.bundleID + ".other"),
                    environment: environment
                ).verify(object, clientDataHash: clientDataHash, at: time)
            }, .rpIDMismatch, key)
        XCTAssertEqual(
            code { _ = try verifier.verify(object, clientDataHash: clientDataHash, at: time + 400 * 86_400) }, .certificateNotValidAtTime,
            key)
    }

    func checkAssertion(_ url: URL, _ row: Row, _ key: String) throws {
        let entry = try XCTUnwrap(try cases()[row.case ?? ""], "\(key): no case \(row.case ?? "-")")
        let key64 = entry.hex("credentialPublicKeyX962")
        let publicKey = try ECDSAPublicKey(sec1Representation: key64, curve: .p256)
        let counter = try XCTUnwrap(entry.entry["counter"] as? Int)
        let object = Array(try Data(contentsOf: url))
        let clientDataHash = entry.hex("assertionClientDataHash")
        // The clientData, when cases.json has it, hashes to the clientDataHash.
        if let clientData = Hex.decode(entry.entry["assertionClientData"] as? String ?? "") {
            XCTAssertEqual(SHA256.hash(clientData), clientDataHash, key)
        }
        let verifier = AssertionVerifier(appID: entry.appID)
        XCTAssertEqual(row.verdict, "valid", key)
        let verified = try verifier.verify(
            object, clientDataHash: clientDataHash, publicKey: publicKey, previousCounter: UInt32(counter - 1))
        expect(
            row, key,
            [
                "counter": fact(Int64(verified.counter)), "authenticatorDataLength": fact(Int64(verified.authenticatorData.bytes.count)),
                "flags": .string("0x" + Hex.encode([verified.authenticatorData.flags])),
            ])
        var otherHash = clientDataHash
        otherHash[31] ^= 0x80
        XCTAssertEqual(
            code { _ = try verifier.verify(object, clientDataHash: otherHash, publicKey: publicKey, previousCounter: 0) },
            .invalidSignature, key)
        XCTAssertEqual(
            code {
                _ = try verifier.verify(object, clientDataHash: clientDataHash, publicKey: publicKey, previousCounter: UInt32(counter))
            },
            .counterNotIncreasing, key)
        XCTAssertEqual(
            code {
                _ = try AssertionVerifier(appID: AppAttestAppID(teamID: "ZZZZZZZZZZ", bundleID: entry.appID.bundleID)).verify(
                    object, clientDataHash: clientDataHash, publicKey: publicKey, previousCounter: 0)
            }, .rpIDMismatch, key)
    }

    func code(_ body: () throws -> Void) -> AppAttestError.Code? {
        do {
            try body()
            return nil
        } catch let error as AppAttestError {
            return error.code
        } catch {
            return nil
        }
    }

    // MARK: - Certificates

    func checkCertificate(_ url: URL, _ row: Row, _ key: String) throws {
        let bytes = Array(try Data(contentsOf: url))
        let der: [UInt8]
        if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN") {
            der = try XCTUnwrap(PEMDocument.parseAll(text).first).derBytes
        } else {
            der = bytes
        }
        let certificate = try Certificate(derEncoded: der)
        expect(
            row, key,
            [
                "commonName": fact(certificate.subject.commonName), "sha256": .string(Hex.encode(certificate.sha256Fingerprint)),
                "notAfter": .string(Self.rfc3339(certificate.validity.notAfter)),
            ])
    }

    static func rfc3339(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    // MARK: - App Store signed data

    func checkJWS(_ url: URL, _ row: Row, _ key: String) async throws {
        let text = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let environment = try XCTUnwrap(AppStoreEnvironment.documented.first { $0.rawValue == row.environment }, "\(key): environment")
        // A verifier with a chain cache, and (for Apple chains) one that caches no chain.
        let verifier: SignedDataVerifier
        var uncached: SignedDataVerifier?
        switch row.trust {
        case "apple-root-g3":
            let root = try appleRootG3()
            verifier = try SignedDataVerifier(trustedRoots: [root], identity: .reportOnly, environment: environment)
            uncached = try SignedDataVerifier(
                trustedRoots: [root], identity: .reportOnly, environment: environment, cache: ChainCache(timeToLive: 0))
        case "apple-library-test-ca":
            let ca = try vectors().apple.appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/certs/testCA.der")
            let root = try Certificate(derEncoded: Array(Data(contentsOf: ca)))
            verifier = try SignedDataVerifier(
                trustedRoots: [root], identity: .reportOnly, environment: environment,
                rfc5280Relaxations: [.missingKeyIdentifiers, .nonCriticalBasicConstraints])
            uncached = try SignedDataVerifier(
                trustedRoots: [root], identity: .reportOnly, environment: environment, cache: ChainCache(timeToLive: 0),
                rfc5280Relaxations: [.missingKeyIdentifiers, .nonCriticalBasicConstraints])
        case "xcode":
            verifier = try SignedDataVerifier(xcode: .carriedByTheData, identity: .reportOnly)
        default:
            return XCTFail("\(key): unknown trust \(row.trust ?? "-")")
        }
        let verdict = try XCTUnwrap(row.verdict, key)
        do {
            let verified = try await verifier.verify(text, kind: nil)
            XCTAssertEqual(verdict, "valid", "\(key): verified as \(verified.kind.rawValue)")
            XCTAssertEqual(verified.kind.rawValue, row.type, "\(key): classified as another kind")
            let payload = verified.payloadJSON
            var facts: [String: JSONFact] = [:]
            for name in [
                "transactionId", "originalTransactionId", "notificationUUID", "notificationType", "environment", "receiptType", "bundleId",
            ] {
                if let value = payload[name]?.stringValue { facts[name] = .string(value) }
            }
            if let signedDate = payload["signedDate"], case .number(let number) = signedDate, let value = Double(number) {
                facts["signedDate"] = .number(value)
            }
            facts["clientSide"] = .strings(
                ["deviceVerification", "deviceVerificationNonce", "appTransactionId"].filter { payload[$0] != nil }.sorted())
            facts["unknownMembers"] = .strings(verified.unknownMembers)
            expect(row, key, facts)
            // The paths a long-running verifier takes for data it has met give the same answer:
            // the same verifier again (chain and header from its cache, SHA-256 resumed after
            // the header part), and twice one that caches no chain (the intermediate's parse
            // remembered, the keys' verification tables built at their second use).
            let again = try await verifier.verify(text, kind: nil)
            XCTAssertEqual(again.payloadJSON, payload, "\(key): from the cache")
            XCTAssertEqual(again.kind, verified.kind, "\(key): from the cache")
            XCTAssertEqual(again.chainFromCache, row.trust != "xcode", "\(key): from the cache")
            if let uncached {
                for round in 0..<3 {
                    let fresh = try await uncached.verify(text, kind: nil)
                    XCTAssertEqual(fresh.payloadJSON, payload, "\(key): uncached, round \(round)")
                    XCTAssertEqual(fresh.chain.map(\.derBytes), verified.chain.map(\.derBytes), "\(key): uncached, round \(round)")
                    XCTAssertFalse(fresh.chainFromCache, "\(key): uncached, round \(round)")
                }
            }
        } catch {
            XCTAssertEqual(verdict, "refused:" + error.code.rawValue, "\(key): \(error.reason)")
            if error.code == .ambiguousPayloadKind, let fitting = row.fitting {
                for kind in fitting { XCTAssertTrue(error.reason.contains("--type \(kind)"), "\(key): \(error.reason)") }
                // Named, it verifies as its own kind.
                if let type = row.type, let kind = SignedDataKind(rawValue: type) {
                    let named = try await verifier.verify(text, kind: kind)
                    XCTAssertEqual(named.kind, kind, key)
                }
            }
        }
    }

    // MARK: - Receipts

    func receiptBytes(_ url: URL) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: url))
        if bytes.first == 0x30 { return bytes }
        return Array(try XCTUnwrap(Data(base64Encoded: Data(bytes), options: .ignoreUnknownCharacters)))
    }

    func checkAppReceipt(_ url: URL, _ row: Row, _ key: String) throws {
        let bytes = try receiptBytes(url)
        let signed = try CMSSignedData(berEncoded: bytes)
        let receipt = try AppReceipt(payload: try XCTUnwrap(signed.payload))
        var facts: [String: JSONFact] = [
            "bundleId": fact(receipt.bundleID), "applicationVersion": fact(receipt.appVersion),
            "inAppCount": fact(Int64(receipt.inAppPurchases.count)), "receiptType": fact(receipt.receiptType),
        ]
        if let creation = receipt.attributes.first(where: { $0.type == 12 }), let node = try? BER.parse(creation.value),
            let text = try? ASN1IA5String(node: node).value
        {
            facts["creationDate"] = .string(text)
        }
        expect(row, key, facts)
        let verdict = try XCTUnwrap(row.verdict, key)
        let bundleID = try XCTUnwrap(receipt.bundleID, key)
        let appleRoot = try Certificate(
            derEncoded: Array(Data(contentsOf: vectors().apple.appendingPathComponent("real/apple-pki/AppleIncRootCertificate.cer"))))
        // The path the row names, with the receipt's own bundle id expected; then one input changed.
        func verifier(_ trust: String?, bundleID: String) throws -> AppReceiptVerifier {
            switch trust {
            case "apple-inc-root":
                return try AppReceiptVerifier(trustedRoots: [appleRoot], bundleId: bundleID, environments: [.production, .sandbox])
            case "xcode-given":
                // Xcode's certificate as a developer saves it (StoreKitTestCertificate.cer, beside this receipt).
                let file = url.deletingLastPathComponent().appendingPathComponent("StoreKitTestCertificate.cer")
                let certificate = try Certificate(derEncoded: Array(Data(contentsOf: file)))
                return AppReceiptVerifier(xcode: .given(certificate), identity: .enforce(bundleId: bundleID))
            case "xcode-carried":
                return AppReceiptVerifier(xcode: .carriedByTheData, identity: .enforce(bundleId: bundleID))
            default:
                throw PKCS7Error(.invalidConfiguration, "unknown trust \(trust ?? "-")")
            }
        }
        func outcome(_ verifier: AppReceiptVerifier) -> String {
            do {
                _ = try verifier.verify(bytes)
                return "valid"
            } catch {
                return "refused:" + error.code.rawValue
            }
        }
        XCTAssertEqual(outcome(try verifier(row.trust, bundleID: bundleID)), verdict, key)
        guard verdict == "valid" else { return }
        // Another app's bundle id: refused with the identity error.
        XCTAssertEqual(outcome(try verifier(row.trust, bundleID: bundleID + ".other")), "refused:invalidAppIdentifier", key)
        if row.trust != "apple-inc-root" {
            // An Xcode receipt is refused without the Xcode path: Xcode's certificate as an
            // ordinary root (its missing subjectKeyIdentifier not relaxed), or Apple's root.
            let storeKit = try XCTUnwrap(signed.certificates.first { $0.subject.commonName == "StoreKit" }, key)
            let plain = try AppReceiptVerifier(
                trustedRoots: [storeKit], bundleId: bundleID, environments: [.xcode], signerRequirement: .anyCertificateUnderTrustedRoots)
            XCTAssertEqual(outcome(plain), "refused:untrustedSigner", key)
            XCTAssertEqual(outcome(try verifier("apple-inc-root", bundleID: bundleID)), "refused:untrustedSigner", key)
        }
    }

    func checkLegacyReceipt(_ url: URL, _ row: Row, _ key: String) throws {
        let receipt = try LegacyTransactionReceipt(base64: Array(try Data(contentsOf: url)))
        expect(
            row, key,
            [
                "transactionId": fact(receipt.transactionID), "bundleId": fact(receipt.bundleID), "productId": fact(receipt.productID),
                "environment": fact(receipt.environment),
            ])
    }
}
