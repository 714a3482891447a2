import Foundation
import SigilASN1
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

@testable import SigilCRL
@testable import SigilX509

/// The parsing findings of issue 18, each against a file pyca/cryptography reads
/// (Vectors/pyca): RFC 4055 §5 absent parameters, the legacy PEM label of RFC 7468 §5.3, and
/// PEM files that hold more than certificates.
final class ParsingFindingsTests: XCTestCase {
    func testSHA256WithRSAParametersMayBeAbsent() throws {
        // A Yubico attestation certificate whose sha256WithRSAEncryption has no parameters.
        let certificate = try XCTUnwrap(
            Certificate.load(Array(try Data(contentsOf: TestPaths.vectors("pyca/unsupported_extension_2.pem")))).first)
        XCTAssertNil(certificate.signatureAlgorithmIdentifier.parameters)
        XCTAssertEqual(certificate.signatureAlgorithm, .rsaPKCS1v15(.sha256))
        // NULL and absent are the same algorithm; any other parameter is still refused.
        for oid in [
            X509OIDs.sha1WithRSAEncryption, X509OIDs.sha256WithRSAEncryption, X509OIDs.sha384WithRSAEncryption,
            X509OIDs.sha512WithRSAEncryption,
        ] {
            XCTAssertEqual(
                try SignatureAlgorithm(AlgorithmIdentifier(algorithm: oid)),
                try SignatureAlgorithm(AlgorithmIdentifier(algorithm: oid, parameters: [5, 0])))
            XCTAssertThrowsError(try SignatureAlgorithm(AlgorithmIdentifier(algorithm: oid, parameters: [4, 0])))
        }
    }

    func testLegacyPEMLabelIsAccepted() throws {
        let der = Array(try Data(contentsOf: TestPaths.vectors("pkits/certs/GoodCACert.crt")))
        let expected = try Certificate(derEncoded: der)
        for label in ["X509 CERTIFICATE", "X.509 CERTIFICATE", "CERTIFICATE"] {
            let pem = PEMDocument(label: label, derBytes: der).pemString
            XCTAssertEqual(try Certificate.load(Array(pem.utf8)), [expected], label)
        }
        XCTAssertThrowsError(try Certificate.load(Array(PEMDocument(label: "X509 CRL", derBytes: der).pemString.utf8)))
    }

    func testForeignPEMBlocksAreSkippedOnlyWhenAsked() throws {
        let der = Array(try Data(contentsOf: TestPaths.vectors("pkits/certs/GoodCACert.crt")))
        let certificate = try Certificate(derEncoded: der)
        let key = PEMDocument(label: "PRIVATE KEY", derBytes: [0x30, 0x03, 0x02, 0x01, 0x00]).pemString
        let mixed = certificate.pemRepresentation + key + PEMDocument(label: "X509 CERTIFICATE", derBytes: der).pemString
        let (found, skipped) = try Certificate.load(Array(mixed.utf8), skippingForeignBlocks: true)
        XCTAssertEqual(found, [certificate, certificate])
        XCTAssertEqual(skipped, ["PRIVATE KEY"])
        // The strict loaders still refuse the mixture, naming the block.
        XCTAssertThrowsError(try Certificate.load(Array(mixed.utf8))) { XCTAssertEqual(($0 as? X509Error)?.code, .invalidPEM) }
        // A file with no certificate at all is an error either way.
        XCTAssertThrowsError(try Certificate.load(Array(key.utf8), skippingForeignBlocks: true)) {
            XCTAssertEqual(($0 as? X509Error)?.code, .invalidPEM)
        }
    }
}
