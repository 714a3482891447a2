import Foundation
import SigilApplePKI
import SigilAppleRoots
import SigilCore
import SigilTestSupport
import SigilX509
import XCTest

/// Apple's roots by job: the pinned fingerprints are Apple's (checked against the certificates
/// themselves), the built-in G3 is exactly Apple's, installation refuses anything else.
final class AppleRootsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-roots-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Each pinned fingerprint is the SHA-256 of the certificate Apple publishes (the shared
    /// copies of Apple's files), and the built-in G3 has it.
    func testFingerprintsAreApples() throws {
        let apple = try TestPaths.requireAppleVectors().appendingPathComponent("real/apple-pki")
        let attest = try TestPaths.requireAppAttestVectors()
        let g3 = try Data(contentsOf: apple.appendingPathComponent("AppleRootCA-G3.cer"))
        let inc = try Data(contentsOf: apple.appendingPathComponent("AppleIncRootCertificate.cer"))
        XCTAssertEqual(SHA256.hash(Array(g3)), AppleRootCertificate.appleRootCAG3.sha256Fingerprint)
        XCTAssertEqual(SHA256.hash(Array(inc)), AppleRootCertificate.appleIncRoot.sha256Fingerprint)
        XCTAssertEqual(
            AppleRootCertificate.appleRootCAG3.fingerprintText,
            "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79")
        XCTAssertEqual(
            AppleRootCertificate.appleIncRoot.fingerprintText,
            "B0:B1:73:0E:CB:C7:FF:45:05:14:2C:49:F1:29:5E:6E:DA:6B:CA:ED:7E:2C:68:C5:BE:91:B5:A1:10:01:F0:24")
        XCTAssertEqual(
            AppleRootCertificate.appAttestationRoot.fingerprintText,
            "1C:B9:82:3B:A2:8B:A6:AD:2D:33:A0:06:94:1D:E2:AE:4F:51:3E:F1:D4:E8:31:B9:F7:E0:FA:7B:62:42:C9:32")
        // The built-in G3 is byte for byte Apple's file.
        let builtIn = try AppleRootCertificates.certificate(.appleRootCAG3, directory: nil)
        XCTAssertEqual(builtIn.derBytes, Array(g3))
        XCTAssertEqual(builtIn.subject.rfc4514String, "C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Root CA - G3")
        // The App Attest root (PEM, as Apple offers it) installs by its fingerprint.
        let pem = try Data(contentsOf: attest.appendingPathComponent("Apple_App_Attestation_Root_CA.pem"))
        let installed = try AppleRootCertificates.install(Array(pem), named: "Apple_App_Attestation_Root_CA.pem", into: directory.path)
        XCTAssertEqual(installed, .appAttestationRoot)
        let attestRoot = try AppleRootCertificates.certificate(.appAttestationRoot, directory: directory.path)
        XCTAssertEqual(SHA256.hash(attestRoot.derBytes), AppleRootCertificate.appAttestationRoot.sha256Fingerprint)
    }

    /// A root that is not installed is an error naming the file to get and the command; after
    /// installation it is found; a file of another root or a changed byte is refused, and a
    /// tampered installed copy is refused when read.
    func testInstallAndMissingRoot() throws {
        let apple = try TestPaths.requireAppleVectors().appendingPathComponent("real/apple-pki")
        do {
            _ = try AppleRootCertificates.certificate(.appleIncRoot, directory: directory.path)
            XCTFail("a missing root was found")
        } catch {
            XCTAssertEqual(error.code, .missingRoot)
            XCTAssertTrue(error.reason.contains("AppleIncRootCertificate.cer"), error.reason)
            XCTAssertTrue(error.reason.contains("sigil roots install"), error.reason)
            XCTAssertTrue(error.reason.contains(AppleRootCertificates.downloadPage), error.reason)
        }
        let inc = Array(try Data(contentsOf: apple.appendingPathComponent("AppleIncRootCertificate.cer")))
        // Apple Root CA - G2 is a real Apple root, but not one Sigil trusts for any job.
        let g2 = Array(try Data(contentsOf: apple.appendingPathComponent("AppleRootCA-G2.cer")))
        var flipped = inc
        flipped[flipped.count / 2] ^= 0x01
        for (bytes, name) in [(g2, "AppleRootCA-G2.cer"), (flipped, "flipped")] {
            do {
                try AppleRootCertificates.install(bytes, named: name, into: directory.path)
                XCTFail("\(name) was installed")
            } catch {
                XCTAssertEqual(error.code, .unknownRoot, name)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("AppleIncRootCertificate.cer").path))
        XCTAssertEqual(try AppleRootCertificates.install(inc, named: "AppleIncRootCertificate.cer", into: directory.path), .appleIncRoot)
        XCTAssertEqual(try AppleRootCertificates.certificate(.appleIncRoot, directory: directory.path).derBytes, inc)
        // A copy changed after installation is refused on use.
        try Data(flipped).write(to: directory.appendingPathComponent("AppleIncRootCertificate.cer"))
        XCTAssertThrowsError(try AppleRootCertificates.certificate(.appleIncRoot, directory: directory.path)) {
            XCTAssertEqual(($0 as? AppleRootError)?.code, .fingerprintMismatch)
        }
    }

    /// Without a roots directory (what Embedded Swift builds have): the built-in G3, and a root the
    /// caller supplies as DER or PEM, taken only with its pinned fingerprint.
    func testRootsFromBuiltInAndSuppliedBytes() throws {
        let apple = try TestPaths.requireAppleVectors().appendingPathComponent("real/apple-pki")
        let attest = try TestPaths.requireAppAttestVectors()
        let g3 = Array(try Data(contentsOf: apple.appendingPathComponent("AppleRootCA-G3.cer")))
        XCTAssertEqual(try AppleRootCertificates.certificate(.appleRootCAG3).derBytes, g3)
        XCTAssertEqual(
            try AppleRootCertificates.certificate(.appleRootCAG3).derBytes,
            try AppleRootCertificates.certificate(.appleRootCAG3, directory: nil).derBytes)
        // A root Sigil does not carry is missing until its bytes are supplied.
        XCTAssertThrowsError(try AppleRootCertificates.certificate(.appleIncRoot)) {
            XCTAssertEqual(($0 as? AppleRootError)?.code, .missingRoot)
        }
        let inc = Array(try Data(contentsOf: apple.appendingPathComponent("AppleIncRootCertificate.cer")))
        XCTAssertEqual(try AppleRootCertificates.certificate(.appleIncRoot, bytes: inc).derBytes, inc)
        let pem = Array(try Data(contentsOf: attest.appendingPathComponent("Apple_App_Attestation_Root_CA.pem")))
        let attestRoot = try AppleRootCertificates.certificate(.appAttestationRoot, bytes: pem)
        XCTAssertEqual(SHA256.hash(attestRoot.derBytes), AppleRootCertificate.appAttestationRoot.sha256Fingerprint)
        // Another root's bytes, a changed byte, text that is no certificate: refused.
        var flipped = inc
        flipped[flipped.count / 2] ^= 0x01
        for (root, bytes, code, label) in [
            (AppleRootCertificate.appleIncRoot, g3, AppleRootError.Code.fingerprintMismatch, "G3 as Apple Inc. Root"),
            (.appleIncRoot, flipped, .fingerprintMismatch, "a changed byte"),
            (.appAttestationRoot, pem + pem, .unreadable, "two PEM blocks"),
            (.appleIncRoot, Array("not a certificate".utf8), .unreadable, "text"),
        ] {
            XCTAssertThrowsError(try AppleRootCertificates.certificate(root, bytes: bytes), label) {
                XCTAssertEqual(($0 as? AppleRootError)?.code, code, label)
            }
        }
    }

    /// SIGIL_ROOTS, then XDG_DATA_HOME, then HOME.
    func testDirectoryPrecedence() {
        XCTAssertEqual(AppleRootCertificates.directory(environment: ["SIGIL_ROOTS": "/r", "XDG_DATA_HOME": "/x", "HOME": "/h"]), "/r")
        XCTAssertEqual(AppleRootCertificates.directory(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]), "/x/sigil/roots")
        XCTAssertEqual(AppleRootCertificates.directory(environment: ["HOME": "/h"]), "/h/.local/share/sigil/roots")
        XCTAssertNil(AppleRootCertificates.directory(environment: [:]))
    }
}
