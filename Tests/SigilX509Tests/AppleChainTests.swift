import Foundation
import SigilASN1
import SigilAppStore
import SigilApplePKI
import SigilCore
import SigilPKCS7
import SigilTestSupport
import XCTest

@testable import SigilX509

/// Apple's chains: the real JWS x5c chains under the Apple signed-data policy at each payload's
/// signedDate (and failing after the leaf's notAfter), the App Store Server Library's test chains
/// with the outcomes its PROVENANCE.md lists, and the real receipt-era RSA chain.
final class AppleChainTests: XCTestCase {
    private func loadCertificate(_ url: URL) throws -> Certificate {
        try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: url))).first)
    }

    /// Test-only JWS reading (SigilJOSE does this properly): the x5c certificates and signedDate.
    private func jwsParts(_ url: URL) throws -> (x5c: [Certificate], signedDate: Int64) {
        let text = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = text.split(separator: ".").map(String.init)
        XCTAssertEqual(parts.count, 3)
        func json(_ part: String) throws -> [String: Any] {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            let data = try XCTUnwrap(Data(base64Encoded: base64))
            return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let header = try json(parts[0])
        let payload = try json(parts[1])
        let x5c = try XCTUnwrap(header["x5c"] as? [String]).map {
            try Certificate(derEncoded: Array(try XCTUnwrap(Data(base64Encoded: $0))))
        }
        let signedDate = try XCTUnwrap((payload["signedDate"] as? NSNumber)?.int64Value)
        return (x5c, signedDate / 1000)
    }

    /// Apple's signed-data profile under `roots`; `relaxations` for Apple's library test PKI.
    private func appleVerifier(_ roots: [Certificate], relaxations: Set<RFC5280Policy.Relaxation> = []) -> CertificateVerifier {
        CertificateVerifier(
            trustedRoots: roots, policies: [RFC5280Policy(relaxations: relaxations), MarkerExtensionPolicy.appleSignedData])
    }

    /// What Apple's App Store Server Library test PKI (testCA.der) needs: no key identifiers, a
    /// non-critical root basicConstraints.
    private let libraryTestPKI: Set<RFC5280Policy.Relaxation> = [.missingKeyIdentifiers, .nonCriticalBasicConstraints]

    func testRealJWSChainsVerifyAtSignedDate() throws {
        let shared = try TestPaths.requireAppleVectors()
        let root = try loadCertificate(shared.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer"))
        let g6 = try loadCertificate(shared.appendingPathComponent("real/apple-pki/AppleWWDRCAG6.cer"))
        let base = shared.appendingPathComponent("real/jws")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "jws" }
        XCTAssertEqual(files.count, 7)
        for file in files {
            let name = file.lastPathComponent
            let (x5c, signedDate) = try jwsParts(file)
            XCTAssertEqual(x5c.count, 3, name)
            let verifier = appleVerifier([root])
            let result = verifier.verify(leaf: x5c[0], intermediates: Array(x5c.dropFirst()), at: signedDate)
            XCTAssertEqual(result.chain, [x5c[0], g6, root], "\(name): \(result.failures)")
            // After the leaf's notAfter it fails, as expired.
            let late = verifier.verify(leaf: x5c[0], intermediates: Array(x5c.dropFirst()), at: x5c[0].validity.notAfter + 1)
            XCTAssertNil(late.chain, name)
            XCTAssertTrue(late.failures.contains { if case .expired = $0 { true } else { false } }, "\(name): \(late.failures)")
            // Without Apple Root CA - G3 among the trusted roots, the root the message carried is not trusted.
            XCTAssertNil(appleVerifier([x5c[0]]).verify(leaf: x5c[0], intermediates: Array(x5c.dropFirst()), at: signedDate).chain)
            let otherRoot = try loadCertificate(shared.appendingPathComponent("real/apple-pki/AppleRootCA-G2.cer"))
            XCTAssertNil(appleVerifier([otherRoot]).verify(leaf: x5c[0], intermediates: Array(x5c.dropFirst()), at: signedDate).chain)
        }
    }

    func testAppleLibraryTestChains() throws {
        let shared = try TestPaths.requireAppleVectors()
        let extracted = shared.appendingPathComponent("library/extracted-from-test-code/swift-SignedDataVerifierTests")
        let testCA = try loadCertificate(
            shared.appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/certs/testCA.der"))
        let root = try loadCertificate(extracted.appendingPathComponent("root_ca_base64_encoded.der"))
        XCTAssertEqual(root, testCA)
        let intermediate = try loadCertificate(extracted.appendingPathComponent("intermediate_ca_base64_encoded.der"))
        let leaf = try loadCertificate(extracted.appendingPathComponent("leaf_cert_base64_encoded.der"))
        let badIntermediate = try loadCertificate(extracted.appendingPathComponent("intermediate_ca_invalid_oid_base64_encoded.der"))
        let leafUnderBad = try loadCertificate(
            extracted.appendingPathComponent("leaf_cert_for_intermediate_ca_invalid_oid_base64_encoded.der"))
        let badLeaf = try loadCertificate(extracted.appendingPathComponent("leaf_cert_invalid_oid_base64_encoded.der"))
        let verifier = appleVerifier([testCA], relaxations: libraryTestPKI)
        let time: Int64 = 1_761_962_975  // testValidChainWithoutOCSP
        XCTAssertEqual(verifier.verify(leaf: leaf, intermediates: [intermediate, root], at: time).chain, [leaf, intermediate, testCA])
        func missingMarker(_ result: CertificateVerifier.Result, _ wanted: ASN1ObjectIdentifier) -> Bool {
            result.chain == nil
                && result.failures.contains {
                    if case .missingMarkerExtension(_, _, let oid, "Apple signed data") = $0 { oid == wanted } else { false }
                }
        }
        XCTAssertTrue(
            missingMarker(
                verifier.verify(leaf: leafUnderBad, intermediates: [badIntermediate, root], at: time), AppleOIDs.wwdrIntermediate),
            "wrong intermediate OID")
        XCTAssertTrue(
            missingMarker(verifier.verify(leaf: badLeaf, intermediates: [intermediate, root], at: time), AppleOIDs.appStoreReceiptSigning),
            "wrong leaf OID")
        let expired = verifier.verify(leaf: badLeaf, intermediates: [intermediate, root], at: 2_280_946_846)
        XCTAssertNil(expired.chain)
        XCTAssertTrue(expired.failures.contains { if case .expired = $0 { true } else { false } })
        // Under RFC 5280 alone (no Apple OIDs) the wrong-OID chains are fine: the OIDs are the policy's.
        // Apple's library test PKI has no key identifiers and a non-critical root basicConstraints:
        // it validates through those two named relaxations, and only through them.
        let strict = CertificateVerifier(trustedRoots: [testCA]).verify(leaf: badLeaf, intermediates: [intermediate], at: time)
        XCTAssertTrue(
            strict.failures.contains(
                .nonConformingCertificate(certificate: PathCertificate(badLeaf, position: 0), violation: .authorityKeyIdentifierMissing)),
            "\(strict.failures)")
        let relaxed = RFC5280Policy(relaxations: [.missingKeyIdentifiers, .nonCriticalBasicConstraints])
        XCTAssertNotNil(
            CertificateVerifier(trustedRoots: [testCA], policies: [relaxed]).verify(leaf: badLeaf, intermediates: [intermediate], at: time)
                .chain)
    }

    /// testNotification's x5c carries a root that is not byte-equal to testCA.der but has its name
    /// and key: the chain must validate to the trusted testCA, never to the carried copy.
    func testMessageSuppliedRootIsIgnored() throws {
        let shared = try TestPaths.requireAppleVectors()
        let resources = shared.appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources")
        let testCA = try loadCertificate(resources.appendingPathComponent("certs/testCA.der"))
        let text = try String(contentsOf: resources.appendingPathComponent("mock_signed_data/testNotification"), encoding: .utf8)
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-\(UUID().uuidString).jws")
        try Data(text.utf8).write(to: temporary)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (x5c, signedDate) = try jwsParts(temporary)
        XCTAssertNotEqual(x5c[2], testCA, "the carried root differs in bytes")
        XCTAssertTrue(x5c[2].subject.matches(testCA.subject))
        let result = appleVerifier([testCA], relaxations: libraryTestPKI).verify(
            leaf: x5c[0], intermediates: Array(x5c.dropFirst()), at: signedDate)
        XCTAssertEqual(result.chain?.last, testCA, "\(result.failures)")
        XCTAssertEqual(result.chain?.count, 3)
        // Trusting only the carried copy's bytes would be wrong; trusting nothing fails.
        XCTAssertNil(
            appleVerifier([], relaxations: libraryTestPKI).verify(leaf: x5c[0], intermediates: Array(x5c.dropFirst()), at: signedDate).chain
        )
    }

    func testReceiptEraRSAChain() throws {
        let shared = try TestPaths.requireAppleVectors()
        let incRoot = try loadCertificate(shared.appendingPathComponent("real/apple-pki/AppleIncRootCertificate.cer"))
        let g5 = try loadCertificate(shared.appendingPathComponent("real/apple-pki/AppleWWDRCAG5.cer"))
        let verifier = CertificateVerifier(trustedRoots: [incRoot])
        XCTAssertEqual(verifier.verify(leaf: g5, at: g5.validity.notBefore + 86_400).chain, [g5, incRoot])
        // The receipt policy wants exactly three certificates (signer, intermediate, root).
        let receiptVerifier = CertificateVerifier(trustedRoots: [incRoot], policies: [RFC5280Policy(), MarkerExtensionPolicy.appleReceipt])
        XCTAssertNil(receiptVerifier.verify(leaf: g5, at: g5.validity.notBefore + 86_400).chain)
    }
}
