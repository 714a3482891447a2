import Foundation
import SigilASN1
import SigilTestSupport
import XCTest

enum Fixtures {
    static let derNames = [
        "ec-p256-cert.der", "ec-p384-ca-cert.der", "rsa-2048-cert.der", "ec-p256-pkcs8.der", "ec-p256-sec1.der",
        "ec-p384-spki.der", "rsa-2048-pkcs1-public.der", "rsa-2048-csr.der", "ec-p256-params.der", "ocsp-request.der",
    ]
    static let berName = "cms-signed-streamed.ber"

    static func url(_ name: String) -> URL { TestPaths.fixtures("SigilASN1Tests", name) }

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: url(name))) }

    /// DER certificates from the Apple third-party data (Apple PKI and Apple's library test certs).
    static func sharedCertificates() throws -> [(String, [UInt8])] {
        let root = try TestPaths.requireAppleVectors()
        var found: [(String, [UInt8])] = []
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        for case let url as URL in walker {
            let ext = url.pathExtension.lowercased()
            guard ["pem", "cer", "crt", "der"].contains(ext), let data = try? Data(contentsOf: url) else { continue }
            if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") {
                guard let blocks = try? PEMDocument.parseAll(text) else { continue }
                for (i, block) in blocks.enumerated() where block.label == "CERTIFICATE" {
                    found.append(("\(url.lastPathComponent)#\(i)", block.derBytes))
                }
            } else if data.first == 0x30 {
                found.append((url.lastPathComponent, Array(data)))
            }
        }
        return found
    }
}

/// Every node of a tree, pre-order.
func allNodes(_ root: ASN1Node) -> [ASN1Node] {
    var out = [root]
    for child in root.children { out += allNodes(child) }
    return out
}

/// Decodes a node as the universal type its tag names; returns the error if decoding failed.
/// Used to exercise every type decoder on fixtures (must succeed) and on fuzz input (must not crash).
@discardableResult
func decodeAsTaggedType(_ node: ASN1Node) -> Error? {
    do {
        switch node.identifier {
        case .boolean: _ = try Bool(node: node)
        case .integer, .enumerated: _ = try ASN1Integer(node: node, identifier: node.identifier)
        case .bitString: _ = try ASN1BitString(node: node)
        case .octetString: _ = try ASN1OctetString(node: node)
        case .null: _ = try ASN1Null(node: node)
        case .objectIdentifier: _ = try ASN1ObjectIdentifier(node: node)
        case .utf8String: _ = try ASN1UTF8String(node: node)
        case .printableString: _ = try ASN1PrintableString(node: node)
        case .ia5String: _ = try ASN1IA5String(node: node)
        case .visibleString: _ = try ASN1VisibleString(node: node)
        case .numericString: _ = try ASN1NumericString(node: node)
        case .bmpString: _ = try ASN1BMPString(node: node)
        case .utcTime: _ = try ASN1UTCTime(node: node)
        case .generalizedTime: _ = try ASN1GeneralizedTime(node: node)
        case .set: _ = try ASN1.setOf(node) { $0 }
        case .sequence: _ = try ASN1.sequenceOf(node) { $0 }
        default: break
        }
        return nil
    } catch {
        return error
    }
}

func reencode(_ node: ASN1Node) -> [UInt8] {
    var writer = DERWriter()
    writer.append(node)
    return writer.bytes
}

func bytes(_ hex: String) -> [UInt8] {
    Hex.decode(hex.replacingOccurrences(of: " ", with: "")) ?? []
}

func XCTAssertASN1Error<T>(
    _ code: ASN1Error.Code, _ expression: @autoclosure () throws -> T,
    _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try expression(), message, file: file, line: line) { error in
        guard let asn1 = error as? ASN1Error else {
            return XCTFail("not an ASN1Error: \(error)", file: file, line: line)
        }
        XCTAssertEqual(asn1.code, code, "\(message) — got \(asn1)", file: file, line: line)
    }
}
