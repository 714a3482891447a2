import Foundation
import SigilASN1
import SigilAppStore
import SigilApplePKI
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

@testable import SigilX509

/// Every certificate in the Apple third-party data (Apple's real PKI, the leaves from Apple's library
/// tests, the library's test CA chains) parsed here and compared field by field with what
/// `openssl x509` prints for the same file.
final class CertificateParsingTests: XCTestCase {
    static func sharedCertificates() throws -> [URL] {
        let shared = try TestPaths.requireAppleVectors()
        var files: [URL] = []
        for folder in [
            "real/apple-pki", "real/from-apple-library-tests", "real/receipts/tikhop-TPInAppReceipt",
            "library",
        ] {
            let base = shared.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker
            where ["cer", "der", "pem"].contains(url.pathExtension)
                && !url.lastPathComponent.hasSuffix(".spki.der")
            {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    private func openssl(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run(try Subprocess.require("openssl"), arguments)
        XCTAssertEqual(result.status, 0, "openssl \(arguments.joined(separator: " "))")
        return result.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// "Apr 30 18:19:06 2014 GMT" → seconds since the epoch.
    private func opensslDate(_ text: String) -> Int64? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 5, let month = months.firstIndex(of: String(parts[0])), let day = Int(parts[1]),
            let year = Int(parts[3])
        else { return nil }
        let hms = parts[2].split(separator: ":").compactMap { Int($0) }
        guard hms.count == 3 else { return nil }
        return try? ASN1TimeComponents(year: year, month: month + 1, day: day, hour: hms[0], minute: hms[1], second: hms[2])
            .secondsSinceEpoch
    }

    func testEverySharedCertificateMatchesOpenSSL() throws {
        let files = try CertificateParsingTests.sharedCertificates()
        XCTAssertGreaterThanOrEqual(files.count, 15)
        for file in files {
            let name = file.lastPathComponent
            let certificates = try Certificate.load(Array(try Data(contentsOf: file)))
            XCTAssertEqual(certificates.count, 1, name)
            guard let certificate = certificates.first else { continue }
            let form = file.pathExtension == "pem" ? "PEM" : "DER"
            func field(_ option: String...) throws -> String {
                try openssl(["x509", "-inform", form, "-in", file.path, "-noout"] + option)
            }
            XCTAssertEqual("subject=" + certificate.subject.rfc4514String, try field("-subject", "-nameopt", "RFC2253"), name)
            XCTAssertEqual("issuer=" + certificate.issuer.rfc4514String, try field("-issuer", "-nameopt", "RFC2253"), name)
            // openssl prints the serial's magnitude in uppercase hex without leading zero bytes.
            let serial = certificate.serialNumberHex.uppercased()
            let trimmed = String(serial.drop(while: { $0 == "0" }))
            let theirs = try field("-serial").replacingOccurrences(of: "serial=", with: "")
            XCTAssertEqual(trimmed.isEmpty ? "00" : (trimmed.count % 2 == 1 ? "0" + trimmed : trimmed), theirs, name)
            let dates = try field("-dates").split(separator: "\n").map(String.init)
            XCTAssertEqual(certificate.validity.notBefore, opensslDate(dates[0].replacingOccurrences(of: "notBefore=", with: "")), name)
            XCTAssertEqual(certificate.validity.notAfter, opensslDate(dates[1].replacingOccurrences(of: "notAfter=", with: "")), name)
            let fingerprint = try field("-fingerprint", "-sha256").split(separator: "=").last.map(String.init) ?? ""
            XCTAssertEqual(
                Hex.encode(certificate.sha256Fingerprint).uppercased(), fingerprint.replacingOccurrences(of: ":", with: ""), name)
            let text = try field("-text")
            XCTAssertTrue(text.contains("Version: \(certificate.version) (0x\(certificate.version - 1))"), name)
            XCTAssertTrue(
                text.contains("Signature Algorithm: \(certificate.signatureAlgorithm)"), "\(name): \(certificate.signatureAlgorithm)")
            switch certificate.publicKey {
            case .ec(let key):
                XCTAssertTrue(text.contains("Public-Key: (\(key.curve == .p256 ? 256 : 384) bit)"), name)
                XCTAssertTrue(text.contains("NIST CURVE: \(key.curve == .p256 ? "P-256" : "P-384")"), name)
            case .rsa(let info):
                XCTAssertTrue(text.contains("Public-Key: (\(info.key.modulusBits) bit)"), name)
            case .unknown:
                XCTFail("\(name): key should be decoded")
            }
            // Every extension openssl names is present here with the same critical flag.
            let known: [(String, ASN1ObjectIdentifier)] = [
                ("X509v3 Basic Constraints", X509OIDs.basicConstraints), ("X509v3 Key Usage", X509OIDs.keyUsage),
                ("X509v3 Extended Key Usage", X509OIDs.extKeyUsage), ("X509v3 Subject Key Identifier", X509OIDs.subjectKeyIdentifier),
                ("X509v3 Authority Key Identifier", X509OIDs.authorityKeyIdentifier),
                ("Authority Information Access", X509OIDs.authorityInfoAccess),
                ("X509v3 CRL Distribution Points", X509OIDs.cRLDistributionPoints),
                ("X509v3 Certificate Policies", X509OIDs.certificatePolicies),
                ("X509v3 Subject Alternative Name", X509OIDs.subjectAltName),
            ]
            for (label, oid) in known {
                let present = text.contains(label + ":") || text.contains(label + ": critical")
                XCTAssertEqual(certificate.extension(oid) != nil, present, "\(name): \(label)")
                if let e = certificate.extension(oid) {
                    XCTAssertEqual(e.critical, text.contains(label + ": critical"), "\(name): \(label) critical flag")
                }
            }
            // OCSP responders and key usage names.
            let ocsp = try field("-ocsp_uri")
            XCTAssertEqual(certificate.ocspURLs.joined(separator: "\n"), ocsp, name)
            if let usage = certificate.keyUsage {
                let opensslNames = [
                    "digitalSignature": "Digital Signature", "nonRepudiation": "Non Repudiation",
                    "keyEncipherment": "Key Encipherment", "dataEncipherment": "Data Encipherment",
                    "keyAgreement": "Key Agreement", "keyCertSign": "Certificate Sign", "cRLSign": "CRL Sign",
                    "encipherOnly": "Encipher Only", "decipherOnly": "Decipher Only",
                ]
                XCTAssertTrue(text.contains(usage.setNames.compactMap { opensslNames[$0] }.joined(separator: ", ")), "\(name): key usage")
            }
            if let constraints = certificate.basicConstraints {
                XCTAssertTrue(text.contains("CA:\(constraints.isCA ? "TRUE" : "FALSE")"), name)
                if let length = constraints.pathLengthConstraint { XCTAssertTrue(text.contains("pathlen:\(length)"), name) }
            }
            // Round trips: PEM out and back, and the TBS is inside the DER.
            XCTAssertEqual(try Certificate.load(Array(certificate.pemRepresentation.utf8)), [certificate])
        }
    }

    func testAppleMarkersAndURLs() throws {
        let shared = try TestPaths.requireAppleVectors()
        let g6 = try Certificate(derEncoded: Array(try Data(contentsOf: shared.appendingPathComponent("real/apple-pki/AppleWWDRCAG6.cer"))))
        XCTAssertNotNil(g6.extension(AppleOIDs.wwdrIntermediate))
        XCTAssertEqual(g6.ocspURLs, ["http://ocsp.apple.com/ocsp03-applerootcag3"])
        XCTAssertEqual(g6.basicConstraints?.isCA, true)
        XCTAssertEqual(g6.subject.commonName, "Apple Worldwide Developer Relations Certification Authority")
        let leaf = try Certificate(
            derEncoded: Array(
                try Data(
                    contentsOf: shared.appendingPathComponent(
                        "real/from-apple-library-tests/receipt-signing-leaf-2025-serial-47c287cd.der"))))
        XCTAssertNotNil(leaf.extension(AppleOIDs.appStoreReceiptSigning))
        XCTAssertEqual(leaf.ocspURLs, ["http://ocsp.apple.com/ocsp03-wwdrg602"])
        guard case .ec(let key) = leaf.publicKey else { return XCTFail("P-256 leaf") }
        XCTAssertEqual(key.curve, .p256)
        XCTAssertTrue(leaf.authorityKeyIdentifier?.keyIdentifier == g6.subjectKeyIdentifier)
        // The leaf is signed by G6 (ECDSA P-384, SHA-384), and G6 by Apple Root CA - G3.
        let root = try Certificate(
            derEncoded: Array(try Data(contentsOf: shared.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer"))))
        XCTAssertNoThrow(try leaf.isSignedVartime(by: g6).get())
        XCTAssertNoThrow(try g6.isSignedVartime(by: root).get())
        XCTAssertNoThrow(try root.isSignedVartime(by: root).get())
        XCTAssertThrowsError(try leaf.isSignedVartime(by: root).get())
        // RSA chain: WWDR G5 by Apple Root CA (Inc.), sha256WithRSAEncryption.
        let g5 = try Certificate(derEncoded: Array(try Data(contentsOf: shared.appendingPathComponent("real/apple-pki/AppleWWDRCAG5.cer"))))
        let incRoot = try Certificate(
            derEncoded: Array(try Data(contentsOf: shared.appendingPathComponent("real/apple-pki/AppleIncRootCertificate.cer"))))
        XCTAssertNoThrow(try g5.isSignedVartime(by: incRoot).get())
        XCTAssertNoThrow(try incRoot.isSignedVartime(by: incRoot).get(), "sha1WithRSAEncryption self-signature")
    }
}
