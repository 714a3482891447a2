import SigilAppAttest
import SigilCBOR
import SigilCore
import SigilPKCS7
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// The code of the AppAttestError `body` throws; nil when it throws nothing (or something else).
func appAttestCode(_ body: () throws -> Void) -> AppAttestError.Code? {
    do {
        try body()
        return nil
    } catch { return (error as? AppAttestError)?.code }
}

/// Every rejection kind of attestations, assertions and fraud receipts on an in-memory PKI shaped
/// like Apple's (SigilTestPKI's `AppleShapedAttestationPKI`), each refused with its own code.
final class AttestationTests: XCTestCase {
    static let notBefore: Int64 = 1_700_000_000
    static let notAfter: Int64 = 1_900_000_000
    static let time: Int64 = 1_800_000_000
    static let appID = AppAttestAppID(teamID: "ABCDE12345", bundleID: "com.example.sigil")
    static let pki = Result { try AppleShapedAttestationPKI.generate(notBefore: notBefore, notAfter: notAfter) }
    static let key = ECDSAPrivateKey.generate(curve: .p256)
    static let clientDataHash = SHA256.hash(Array("one-time challenge 42".utf8))

    var pki: AppleShapedAttestationPKI { get throws { try Self.pki.get() } }
    var keyID: [UInt8] { SHA256.hash(Self.key.publicKey.uncompressedRepresentation) }

    func verifier(_ environment: AppAttestEnvironment = .production) throws -> AttestationVerifier {
        AttestationVerifier(testRoot: try pki.root, appID: Self.appID, environment: environment)
    }

    func attestation(
        appID: String = appID.description, aaguid: [UInt8] = AppleShapedAttestationPKI.productionAAGUID, counter: UInt32 = 0,
        credentialID: [UInt8]? = nil, extensions: CBORValue? = nil, nonceOverride: [UInt8]? = nil, notAfter: Int64 = notAfter
    ) throws -> [UInt8] {
        try pki.attestation(
            credentialKey: Self.key.publicKey, appID: appID, clientDataHash: Self.clientDataHash, notBefore: Self.notBefore,
            notAfter: notAfter, aaguid: aaguid, counter: counter, credentialID: credentialID, extensions: extensions,
            nonceOverride: nonceOverride, receipt: [0x30, 0x80, 0x00, 0x00])
    }

    func assertRefused(
        _ object: [UInt8], _ code: AppAttestError.Code, verifier: AttestationVerifier? = nil, clientDataHash: [UInt8] = clientDataHash,
        expectedKeyID: [UInt8]? = nil, at time: Int64 = time, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let verifier = try verifier ?? self.verifier()
        let trace = VerificationTrace()
        XCTAssertThrowsError(
            try verifier.verify(object, clientDataHash: clientDataHash, expectedKeyID: expectedKeyID, at: time, trace: trace), file: file,
            line: line
        ) { error in
            XCTAssertEqual((error as? AppAttestError)?.code, code, "\(error)", file: file, line: line)
        }
        XCTAssertEqual(trace.steps.last?.verdict, .fail, "the trace ends with the failing step", file: file, line: line)
    }

    /// AppAttestError has the shared shape: `appattest.<code>`, equal and hashed by code, the
    /// chain's typed failures kept.
    func testErrorShape() {
        let error = AppAttestError(.nonceMismatch, "step 4: …")
        XCTAssertEqual(error.qualifiedCode, "appattest.nonceMismatch")
        XCTAssertEqual(error, AppAttestError(.nonceMismatch, "another reason"))
        XCTAssertNotEqual(error, AppAttestError(.rpIDMismatch, "step 4: …"))
        XCTAssertEqual(AppAttestError(.untrustedChain, "x", failures: [.noPathToTrustedRoot("none")]).failures.count, 1)
        let codes: [AppAttestError.Code] = [
            .malformedObject, .unsupportedFormat, .malformedAuthenticatorData, .malformedCertificate, .rootNotPinned, .untrustedChain,
            .certificateNotValidAtTime, .nonceMismatch, .keyIDMismatch, .rpIDMismatch, .nonZeroCounter, .environmentMismatch,
            .credentialIDMismatch, .publicKeyMismatch, .invalidSignature, .counterNotIncreasing, .malformedReceipt, .receiptNotTrusted,
            .receiptAppIDMismatch, .receiptKeyMismatch, .receiptNotFresh,
        ]
        XCTAssertEqual(Set(codes.map(\.rawValue)).count, codes.count, "every rejection kind has its own code")
    }

    /// The chain's policies as the verifier applies them (one concrete type) and as given.
    func testChainPolicies() {
        XCTAssertEqual(AttestationVerifier.erasedChainPolicies.map(\.name), AttestationVerifier.chainPolicies.map(\.name))
        XCTAssertEqual((AttestationVerifier.chainPolicies.first as? RFC5280Policy)?.relaxations, [.missingKeyIdentifiers])
        XCTAssertEqual(AttestationVerifier.erasedChainPolicies.count, 2)
    }

    // MARK: Attestation

    func testValidAttestationInBothEnvironments() throws {
        let trace = VerificationTrace()
        let verified = try verifier().verify(
            try attestation(extensions: AppleShapedAttestationPKI.appleExtensions(category: 4, bundleVersion: "2.1")),
            clientDataHash: Self.clientDataHash, expectedKeyID: keyID, at: Self.time, trace: trace)
        XCTAssertEqual(verified.keyID, keyID)
        XCTAssertEqual(verified.publicKey, Self.key.publicKey)
        XCTAssertEqual(verified.environment, .production)
        XCTAssertEqual(verified.counter, 0)
        XCTAssertEqual(verified.receipt, [0x30, 0x80, 0x00, 0x00])
        XCTAssertEqual(verified.extensions?.validationCategory, .appStore)
        XCTAssertEqual(verified.extensions?.bundleVersion, "2.1")
        XCTAssertFalse(trace.steps.contains { $0.verdict == .fail })
        XCTAssertTrue(trace.steps.contains { $0.clause == "Apple App Attest, attestation step 9" && $0.verdict == .pass })
        let development = try verifier(.development).verify(
            try attestation(aaguid: AppleShapedAttestationPKI.developmentAAGUID), clientDataHash: Self.clientDataHash, at: Self.time)
        XCTAssertEqual(development.environment, .development)
        XCTAssertNil(development.extensions)
    }

    func testWrongNonce() throws {
        try assertRefused(try attestation(nonceOverride: SHA256.hash([0])), .nonceMismatch)
        try assertRefused(try attestation(), .nonceMismatch, clientDataHash: SHA256.hash(Array("another challenge".utf8)))
    }

    func testWrongRPID() throws {
        try assertRefused(try attestation(appID: "ABCDE12345.com.example.other"), .rpIDMismatch)
    }

    func testWrongEnvironmentAAGUID() throws {
        try assertRefused(try attestation(aaguid: AppleShapedAttestationPKI.developmentAAGUID), .environmentMismatch)
        try assertRefused(try attestation(), .environmentMismatch, verifier: try verifier(.development))
        try assertRefused(try attestation(aaguid: Array("appattest".utf8) + [0, 0, 0, 0, 0, 0, 1]), .environmentMismatch)
    }

    func testNonzeroCounter() throws {
        try assertRefused(try attestation(counter: 1), .nonZeroCounter)
        try assertRefused(try attestation(counter: 0x8000_0000), .nonZeroCounter)
    }

    func testCredentialIDNotKeyID() throws {
        try assertRefused(try attestation(credentialID: SHA256.hash([1])), .credentialIDMismatch)
        try assertRefused(try attestation(credentialID: Array(keyID.prefix(31))), .credentialIDMismatch)
    }

    func testCOSEKeyNotTheCertificateKey() throws {
        let other = ECDSAPrivateKey.generate(curve: .p256).publicKey
        let authData = AppleShapedAttestationPKI.authenticatorData(
            appID: Self.appID.description, flags: 0x40, counter: 0, credentialID: keyID, credentialKey: other)
        let certificate = try pki.credentialCertificate(
            for: Self.key.publicKey, nonce: SHA256.hash(authData + Self.clientDataHash), notBefore: Self.notBefore, notAfter: Self.notAfter)
        try assertRefused(
            AppleShapedAttestationPKI.attestationObject(
                authenticatorData: authData, certificates: [certificate, try pki.intermediate], receipt: []),
            .publicKeyMismatch)
    }

    func testExpectedKeyIDMismatch() throws {
        try assertRefused(try attestation(), .keyIDMismatch, expectedKeyID: SHA256.hash([2]))
    }

    func testChainToAnotherRoot() throws {
        let other = try AppleShapedAttestationPKI.generate(notBefore: Self.notBefore, notAfter: Self.notAfter)
        try assertRefused(
            try attestation(), .untrustedChain,
            verifier: AttestationVerifier(testRoot: other.root, appID: Self.appID, environment: .production))
        // A root inside x5c is never trusted: sending [credential, intermediate, root] changes nothing for another verifier.
        let object = try CBOR.decode(try attestation())
        guard let x5c = object["attStmt"]?["x5c"]?.arrayValue else { return XCTFail() }
        let withRoot = AppleShapedAttestationPKI.attestationObject(
            authenticatorData: object["authData"]?.bytesValue ?? [],
            certificates: try x5c.map { try Certificate(derEncoded: $0.bytesValue ?? []) } + [try pki.root], receipt: [])
        try assertRefused(
            withRoot, .untrustedChain, verifier: AttestationVerifier(testRoot: other.root, appID: Self.appID, environment: .production))
        // The Apple initializer refuses a root that is not the pinned one.
        XCTAssertThrowsError(try AttestationVerifier(appAttestationRoot: try pki.root, appID: Self.appID, environment: .production)) {
            XCTAssertEqual(($0 as? AppAttestError)?.code, .rootNotPinned)
        }
    }

    func testExpiredCredentialCertificate() throws {
        try assertRefused(try attestation(notAfter: Self.time - 1), .certificateNotValidAtTime)
        try assertRefused(try attestation(), .certificateNotValidAtTime, at: Self.notBefore - 1)
    }

    func testTamperedAuthenticatorData() throws {
        let object = try CBOR.decode(try attestation())
        guard var authData = object["authData"]?.bytesValue, let x5c = object["attStmt"]?["x5c"]?.arrayValue else { return XCTFail() }
        let certificates = try x5c.map { try Certificate(derEncoded: $0.bytesValue ?? []) }
        for index in [0, 31, 32, 36, 40, 60] {
            let original = authData[index]
            authData[index] ^= 0x01
            let tampered = AppleShapedAttestationPKI.attestationObject(authenticatorData: authData, certificates: certificates, receipt: [])
            XCTAssertThrowsError(try verifier().verify(tampered, clientDataHash: Self.clientDataHash, at: Self.time)) {
                let code = ($0 as? AppAttestError)?.code
                XCTAssertTrue(code == .nonceMismatch || code == .malformedAuthenticatorData, "byte \(index): \($0)")
            }
            authData[index] = original
        }
    }

    func testTruncatedOversizedAndMalformedObjects() throws {
        let object = try attestation()
        for length in 0..<object.count {
            XCTAssertThrowsError(try verifier().verify(Array(object.prefix(length)), clientDataHash: Self.clientDataHash, at: Self.time)) {
                XCTAssertEqual(($0 as? AppAttestError)?.code, .malformedObject, "prefix \(length)")
            }
        }
        try assertRefused(object + [0x00], .malformedObject)
        let oversized = try pki.attestation(
            credentialKey: Self.key.publicKey, appID: Self.appID.description, clientDataHash: Self.clientDataHash,
            notBefore: Self.notBefore,
            notAfter: Self.notAfter, receipt: [UInt8](repeating: 0x30, count: 300_000))
        try assertRefused(oversized, .malformedObject)
        let value = try CBOR.decode(object)
        guard let authData = value["authData"]?.bytesValue, let x5c = value["attStmt"]?["x5c"]?.arrayValue else { return XCTFail() }
        let certificates = try x5c.map { try Certificate(derEncoded: $0.bytesValue ?? []) }
        // The authenticator data cut inside the COSE key; a credentialIdLength past the end; junk after it.
        for bad in [
            Array(authData.prefix(100)), Array(authData.prefix(53)) + [0xFF, 0xFF] + Array(authData.dropFirst(55)), authData + [0x01],
        ] {
            try assertRefused(
                AppleShapedAttestationPKI.attestationObject(authenticatorData: bad, certificates: certificates, receipt: []),
                .malformedAuthenticatorData)
        }
        try assertRefused(
            AppleShapedAttestationPKI.attestationObject(
                authenticatorData: authData, certificates: certificates, receipt: [], fmt: "packed"),
            .unsupportedFormat)
        try assertRefused(CBOR.encode(.map(pairs: [(.text("fmt"), .text("apple-appattest"))])), .malformedObject)
        try assertRefused(CBOR.encode(.array([])), .malformedObject)
        try assertRefused(Array("not base64 !".utf8), .malformedObject)
        try assertRefused([UInt8](repeating: UInt8(ascii: "A"), count: 600_000), .malformedObject)
        // A certificate in x5c that does not parse.
        let badCertificate = CBOR.encode(
            .map(pairs: [
                (.text("fmt"), .text("apple-appattest")),
                (.text("attStmt"), .map(pairs: [(.text("x5c"), .array([.bytes([0x30, 0x00])])), (.text("receipt"), .bytes([]))])),
                (.text("authData"), .bytes(authData)),
            ]))
        try assertRefused(badCertificate, .malformedCertificate)
    }

    func testMutatedAttestationsNeverCrash() throws {
        let object = try attestation()
        var rng = SeededGenerator(seed: 0xA77E_57)
        let verifier = try verifier()
        for _ in 0..<400 {
            var bytes = object
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            _ = try? verifier.verify(bytes, clientDataHash: Self.clientDataHash, at: Self.time)
        }
    }

    // MARK: Assertion

    func assertion(counter: UInt32, key: ECDSAPrivateKey = key, appID: String = appID.description, clientDataHash: [UInt8] = clientDataHash)
        -> [UInt8]
    {
        AppleShapedAttestationPKI.assertion(key: key, appID: appID, counter: counter, clientDataHash: clientDataHash)
    }

    func assertAssertionRefused(
        _ object: [UInt8], _ code: AppAttestError.Code, previous: UInt32 = 0, file: StaticString = #filePath, line: UInt = #line
    ) {
        let trace = VerificationTrace()
        XCTAssertThrowsError(
            try AssertionVerifier(appID: Self.appID).verify(
                object, clientDataHash: Self.clientDataHash, publicKey: Self.key.publicKey, previousCounter: previous, trace: trace),
            file: file, line: line
        ) { XCTAssertEqual(($0 as? AppAttestError)?.code, code, "\($0)", file: file, line: line) }
        XCTAssertEqual(trace.steps.last?.verdict, .fail, file: file, line: line)
    }

    func testValidAssertionReturnsTheNewCounter() throws {
        let trace = VerificationTrace()
        let verified = try AssertionVerifier(appID: Self.appID).verify(
            assertion(counter: 1), clientDataHash: Self.clientDataHash, publicKey: Self.key.publicKey, previousCounter: 0, trace: trace)
        XCTAssertEqual(verified.counter, 1)
        for n in 2...5 { XCTAssertTrue(trace.steps.contains { $0.clause.hasPrefix("Apple App Attest, assertion step \(n)") }, "step \(n)") }
        XCTAssertFalse(trace.steps.contains { $0.verdict == .fail })
        // Over clientData, hashed by the verifier (step 1).
        let clientData = Array(#"{"challenge":"abc","action":"buy"}"#.utf8)
        let object = assertion(counter: 7, clientDataHash: SHA256.hash(clientData))
        XCTAssertEqual(
            try AssertionVerifier(appID: Self.appID).verify(
                object, clientData: clientData, publicKey: Self.key.publicKey, previousCounter: 6
            ).counter, 7)
        // With Apple's extensions after the 37 bytes, reported.
        let withExtensions = AppleShapedAttestationPKI.assertion(
            key: Self.key, appID: Self.appID.description, counter: 2, clientDataHash: Self.clientDataHash,
            extensions: AppleShapedAttestationPKI.appleExtensions(category: 2, bundleVersion: "9"))
        let reported = try AssertionVerifier(appID: Self.appID).verify(
            withExtensions, clientDataHash: Self.clientDataHash, publicKey: Self.key.publicKey, previousCounter: 1)
        XCTAssertEqual(reported.authenticatorData.extensions?.validationCategory, .testFlight)
    }

    /// Real devices set AT (0x40) in an assertion and send the 37 bytes alone; newer ones may add one
    /// extensions map. Both verify; AT is reported, never read as credential data.
    func testAssertionAuthenticatorDataAsDevicesSendIt() throws {
        let verifier = AssertionVerifier(appID: Self.appID)
        for flags: UInt8 in [0x40, 0x41, 0x01, 0x00] {
            let object = AppleShapedAttestationPKI.assertion(
                key: Self.key, appID: Self.appID.description, counter: 4, clientDataHash: Self.clientDataHash, flags: flags)
            let trace = VerificationTrace()
            let verified = try verifier.verify(
                object, clientDataHash: Self.clientDataHash, publicKey: Self.key.publicKey, previousCounter: 3, trace: trace)
            XCTAssertEqual(verified.authenticatorData.bytes.count, 37)
            XCTAssertEqual(verified.authenticatorData.form, .assertion)
            XCTAssertEqual(verified.authenticatorData.attestedCredentialDataFlag, flags & 0x40 != 0)
            XCTAssertNil(verified.authenticatorData.attestedCredential)
            XCTAssertNil(verified.policyReport.validationCategory)
            XCTAssertFalse(verified.policyReport.enforced)
            XCTAssertEqual(trace.steps.first?.detail.contains("AT set with no credential data"), flags & 0x40 != 0)
        }
        // AT set plus one extensions map.
        let withExtensions = AppleShapedAttestationPKI.assertion(
            key: Self.key, appID: Self.appID.description, counter: 9, clientDataHash: Self.clientDataHash,
            extensions: AppleShapedAttestationPKI.appleExtensions(category: 4, bundleVersion: "27.1"), flags: 0x40)
        let verified = try verifier.verify(
            withExtensions, clientDataHash: Self.clientDataHash, publicKey: Self.key.publicKey, previousCounter: 8)
        XCTAssertEqual(verified.policyReport.validationCategory, .appStore)
        XCTAssertEqual(verified.policyReport.bundleVersion, "27.1")
        // The same bytes read as an attestation's authenticator data are refused: AT asks for credential data.
        let authData = try XCTUnwrap(CBOR.decode(withExtensions)["authenticatorData"]?.bytesValue)
        XCTAssertThrowsError(try AuthenticatorData(Array(authData.prefix(37)), form: .attestation)) {
            XCTAssertEqual(($0 as? AppAttestError)?.code, .malformedAuthenticatorData)
        }
        XCTAssertNoThrow(try AuthenticatorData(authData, form: .assertion))
    }

    /// After the 37 bytes of an assertion's authenticator data only one CBOR map may follow;
    /// anything else is refused with a reason naming it (signed correctly, so only the shape refuses).
    func testAssertionTrailingBytesThatAreNotOneMap() throws {
        let fixed = AppleShapedAttestationPKI.authenticatorData(appID: Self.appID.description, flags: 0x40, counter: 2)
        let map = CBOR.encode(AppleShapedAttestationPKI.appleExtensions(category: 4, bundleVersion: "1"))
        let attested = AppleShapedAttestationPKI.authenticatorData(
            appID: Self.appID.description, flags: 0x40, counter: 2, aaguid: AppAttestEnvironment.production.aaguid,
            credentialKey: Self.key.publicKey)
        let cases: [(String, [UInt8], String)] = [
            ("one stray byte", fixed + [0x01], "do not begin a CBOR map"),
            ("a CBOR array", fixed + CBOR.encode(.array([.unsigned(1)])), "do not begin a CBOR map"),
            ("a map and a byte", fixed + map + [0x00], "after the extensions map"),
            ("two maps", fixed + map + map, "after the extensions map"),
            ("a truncated map", fixed + map.dropLast(), "extensions"),
            ("attested credential data", attested, "do not begin a CBOR map"),
            ("ED set, nothing after", Array(fixed.prefix(32)) + [0xC0] + Array(fixed[33...]), "flag ED is set"),
        ]
        for (name, authData, reason) in cases {
            let nonce = SHA256.hash(authData + Self.clientDataHash)
            let object = AppleShapedAttestationPKI.assertionObject(
                authenticatorData: authData, signature: Self.key.signature(for: nonce, hash: .sha256).derRepresentation)
            XCTAssertThrowsError(
                try AssertionVerifier(appID: Self.appID).verify(
                    object, clientDataHash: Self.clientDataHash, publicKey: Self.key.publicKey, previousCounter: 0), name
            ) {
                let error = $0 as? AppAttestError
                XCTAssertEqual(error?.code, .malformedAuthenticatorData, name)
                XCTAssertTrue(error?.reason.contains(reason) ?? false, "\(name): \(error?.reason ?? "")")
            }
        }
    }

    /// The policy on the authenticator-data extensions: categories and bundle versions restricted,
    /// and an object without extensions (a device before iOS 27) accepted or refused as named.
    func testAppAttestPolicy() throws {
        func object(_ extensions: CBORValue?) -> [UInt8] {
            AppleShapedAttestationPKI.assertion(
                key: Self.key, appID: Self.appID.description, counter: 2, clientDataHash: Self.clientDataHash, extensions: extensions)
        }
        let appStore = object(AppleShapedAttestationPKI.appleExtensions(category: 4, bundleVersion: "12"))
        let testFlight = object(AppleShapedAttestationPKI.appleExtensions(category: 2, bundleVersion: "12"))
        let bare = object(nil)
        func run(_ policy: AppAttestPolicy, _ object: [UInt8]) -> AppAttestError.Code? {
            appAttestCode {
                _ = try AssertionVerifier(appID: Self.appID, policy: policy).verify(
                    object, clientDataHash: Self.clientDataHash, publicKey: Self.key.publicKey, previousCounter: 1)
            }
        }
        let storeOnly = AppAttestPolicy(validationCategories: .only([.appStore]), bundleVersions: .any, whenAbsent: .accept)
        XCTAssertNil(run(storeOnly, appStore))
        XCTAssertEqual(run(storeOnly, testFlight), .policyNotMet)
        XCTAssertNil(run(storeOnly, bare))
        let storeOnlyStated = AppAttestPolicy(
            validationCategories: .only([.appStore, .testFlight]), bundleVersions: .any, whenAbsent: .refuse)
        XCTAssertNil(run(storeOnlyStated, testFlight))
        XCTAssertEqual(run(storeOnlyStated, bare), .policyNotMet)
        let versions = AppAttestPolicy(validationCategories: .any, bundleVersions: .only(["13"]), whenAbsent: .accept)
        XCTAssertEqual(run(versions, appStore), .policyNotMet)
        XCTAssertNil(run(.acceptAllAndReport, testFlight))
        XCTAssertNil(run(.acceptAllAndReport, bare))
        // Attestations are judged by the same policy.
        let attestation = try pki.attestation(
            credentialKey: Self.key.publicKey, appID: Self.appID.description, clientDataHash: Self.clientDataHash,
            notBefore: Self.notBefore, notAfter: Self.notAfter,
            extensions: AppleShapedAttestationPKI.appleExtensions(category: 2, bundleVersion: "12"))
        XCTAssertEqual(
            appAttestCode {
                _ = try AttestationVerifier(testRoot: try self.pki.root, appID: Self.appID, environment: .production, policy: storeOnly)
                    .verify(attestation, clientDataHash: Self.clientDataHash, at: Self.time)
            }, .policyNotMet)
        let reported = try AttestationVerifier(testRoot: try pki.root, appID: Self.appID, environment: .production)
            .verify(attestation, clientDataHash: Self.clientDataHash, at: Self.time)
        XCTAssertEqual(reported.policyReport.validationCategory, .testFlight)
        XCTAssertEqual(reported.policyReport.bundleVersion, "12")
    }

    func testNonIncreasingCounter() {
        assertAssertionRefused(assertion(counter: 5), .counterNotIncreasing, previous: 5)
        assertAssertionRefused(assertion(counter: 4), .counterNotIncreasing, previous: 5)
        assertAssertionRefused(assertion(counter: 0), .counterNotIncreasing, previous: 0)
    }

    func testCounterReadUnsigned() throws {
        let verifier = AssertionVerifier(appID: Self.appID)
        for (previous, counter) in [(UInt32(0x7FFF_FFFF), UInt32(0x8000_0000)), (0x8000_0000, 0xFFFF_FFFF), (0, 0x8000_0001)] {
            XCTAssertEqual(
                try verifier.verify(
                    assertion(counter: counter), clientDataHash: Self.clientDataHash, publicKey: Self.key.publicKey,
                    previousCounter: previous
                ).counter, counter)
        }
        // Read as signed, 0x80000000 would be negative and "smaller" than 5; unsigned, 5 is the smaller one.
        assertAssertionRefused(assertion(counter: 5), .counterNotIncreasing, previous: 0x8000_0000)
    }

    func testTamperedAssertion() throws {
        let value = try CBOR.decode(assertion(counter: 3))
        guard let authData = value["authenticatorData"]?.bytesValue, let signature = value["signature"]?.bytesValue else {
            return XCTFail()
        }
        for index in [0, 32, 36] {
            var tampered = authData
            tampered[index] ^= 0x02
            assertAssertionRefused(
                AppleShapedAttestationPKI.assertionObject(authenticatorData: tampered, signature: signature), .invalidSignature)
        }
        var badSignature = signature
        badSignature[badSignature.count - 1] ^= 0x01
        assertAssertionRefused(
            AppleShapedAttestationPKI.assertionObject(authenticatorData: authData, signature: badSignature), .invalidSignature)
        assertAssertionRefused(
            AppleShapedAttestationPKI.assertionObject(authenticatorData: authData, signature: [0x30, 0x00]), .invalidSignature)
        assertAssertionRefused(assertion(counter: 3, key: ECDSAPrivateKey.generate(curve: .p256)), .invalidSignature)
        assertAssertionRefused(assertion(counter: 3, clientDataHash: SHA256.hash([9])), .invalidSignature)
        assertAssertionRefused(assertion(counter: 3, appID: "ABCDE12345.com.example.other"), .rpIDMismatch)
        assertAssertionRefused(
            AppleShapedAttestationPKI.assertionObject(authenticatorData: Array(authData.prefix(36)), signature: signature),
            .malformedAuthenticatorData)
        let object = assertion(counter: 3)
        for length in 0..<object.count { assertAssertionRefused(Array(object.prefix(length)), .malformedObject) }
    }

    // MARK: Fraud-metric receipt

    func receipt(
        appID: String = appID.description, certificate: Certificate? = nil, type: String = "ATTEST",
        created: String = "2027-01-15T08:00:00.5Z",
        omit: Int? = nil
    ) throws -> [UInt8] {
        let credential = try pki.credentialCertificate(
            for: Self.key.publicKey, nonce: SHA256.hash([0]), notBefore: Self.notBefore, notAfter: Self.notAfter)
        let fields: [(Int, [UInt8])] = [
            (2, Array(appID.utf8)), (3, (certificate ?? credential).derBytes), (4, Self.clientDataHash), (5, Array("token".utf8)),
            (6, Array(type.utf8)), (7, Array("production".utf8)), (12, Array(created.utf8)), (17, Array("3".utf8)),
            (19, Array("2027-01-16T08:00:00Z".utf8)), (21, Array("2027-04-15T08:00:00Z".utf8)),
        ]
        return try pki.receipt(fields: fields.filter { $0.0 != omit })
    }

    func testReceiptFieldsAndChecks() throws {
        let verifier = AttestationReceiptVerifier(trustedRoots: [try pki.receiptRoot], appID: Self.appID)
        let created: Int64 = 1_800_000_000 + 0  // 2027-01-15T08:00:00Z
        let verified = try verifier.verify(try receipt(), attestedPublicKey: Self.key.publicKey, now: created + 60, maximumAge: 300)
        XCTAssertEqual(verified.receipt.appID, Self.appID.description)
        XCTAssertEqual(verified.receipt.receiptType, "ATTEST")
        XCTAssertEqual(verified.receipt.environment, "production")
        XCTAssertEqual(verified.receipt.creationTime.secondsSinceEpoch, created)
        XCTAssertEqual(verified.receipt.riskMetric, 3)
        XCTAssertEqual(verified.receipt.notBefore?.secondsSinceEpoch, created + 86_400)
        XCTAssertEqual(verified.receipt.expirationTime?.secondsSinceEpoch, created + 90 * 86_400)
        XCTAssertEqual(verified.receipt.clientHash, Self.clientDataHash)
        XCTAssertEqual(verified.receipt.token, "token")
        XCTAssertEqual(verified.validationTime, created)
        XCTAssertEqual(
            appAttestCode { _ = try verifier.verify(try self.receipt(appID: "ABCDE12345.com.other")) },
            .receiptAppIDMismatch)
        XCTAssertEqual(
            appAttestCode {
                _ = try verifier.verify(try self.receipt(), attestedPublicKey: ECDSAPrivateKey.generate(curve: .p256).publicKey)
            },
            .receiptKeyMismatch)
        XCTAssertEqual(appAttestCode { _ = try verifier.verify(try self.receipt(), now: created + 301, maximumAge: 300) }, .receiptNotFresh)
        XCTAssertEqual(appAttestCode { _ = try verifier.verify(try self.receipt(), now: created - 1, maximumAge: 300) }, .receiptNotFresh)
        XCTAssertEqual(appAttestCode { _ = try verifier.verify(try self.receipt(type: "OTHER")) }, .malformedReceipt)
        XCTAssertEqual(appAttestCode { _ = try verifier.verify(try self.receipt(created: "yesterday")) }, .malformedReceipt)
        for field in [2, 3, 6, 12] {
            XCTAssertEqual(appAttestCode { _ = try verifier.verify(try self.receipt(omit: field)) }, .malformedReceipt, "field \(field)")
        }
        XCTAssertEqual(appAttestCode { _ = try verifier.verify([0x30, 0x03, 0x02, 0x01, 0x00]) }, .malformedReceipt)
        let other = try AppleShapedAttestationPKI.generate(notBefore: Self.notBefore, notAfter: Self.notAfter)
        XCTAssertEqual(
            appAttestCode {
                _ = try AttestationReceiptVerifier(trustedRoots: [other.receiptRoot], appID: Self.appID).verify(try self.receipt())
            },
            .receiptNotTrusted)
        XCTAssertEqual(appAttestCode { _ = try verifier.verify(try self.receipt(), at: Self.notAfter + 1) }, .receiptNotTrusted)
    }
}
