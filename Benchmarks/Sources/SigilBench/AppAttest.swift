import Crypto
import Foundation
import SigilAppAttest
import SigilCBOR
import SigilCore
import SigilTestPKI
import SigilX509
import SwiftASN1
import X509

// App Attest verification, side by side with the same steps done on swift-crypto and
// swift-certificates (what the newest Swift App Attest verifiers build on). Both sides decode the
// CBOR with Sigil's decoder, so the rows compare the cryptography and X.509 work: for an
// attestation, the credential certificate's chain to the (test) App Attestation root under
// RFC 5280, the nonce against the certificate's 1.2.840.113635.100.8.2 extension, the key id, RP ID
// hash, counter and AAGUID; for an assertion, the ECDSA P-256 signature over
// SHA-256(authenticatorData ‖ clientDataHash), the RP ID hash and the counter. The data comes from
// SigilTestPKI's Apple-shaped attestation PKI (Apple's own sample has an expired certificate).

enum AttestBaselineError: Error { case format, chain, nonce, key, authData, signature }

/// The nonce inside the credential certificate's extension: SEQUENCE { [1] { OCTET STRING } }.
func baselineNonce(_ certificate: X509.Certificate) throws -> [UInt8] {
    guard let ext = certificate.extensions[oid: [1, 2, 840, 113635, 100, 8, 2]] else { throw AttestBaselineError.nonce }
    let node = try DER.parse(ext.value)
    guard case .constructed(let sequence) = node.content, let tagged = sequence.first(where: { _ in true }),
        case .constructed(let inner) = tagged.content, let octets = inner.first(where: { _ in true }),
        case .primitive(let bytes) = octets.content
    else { throw AttestBaselineError.nonce }
    return Array(bytes)
}

/// One attestation verified with swift-certificates and swift-crypto.
func baselineAttestation(
    _ object: [UInt8], clientDataHash: [UInt8], root: X509.Certificate, appID: String, at date: Date
) async throws -> [UInt8] {
    let value = try CBOR.decode(object)
    guard value["fmt"]?.textValue == "apple-appattest", let authData = value["authData"]?.bytesValue,
        case .array(let x5c)? = value["attStmt"]?["x5c"], x5c.count == 2, let leafDER = x5c[0].bytesValue,
        let intermediateDER = x5c[1].bytesValue
    else { throw AttestBaselineError.format }
    let leaf = try X509.Certificate(derEncoded: leafDER)
    let intermediate = try X509.Certificate(derEncoded: intermediateDER)
    var verifier = Verifier(rootCertificates: CertificateStore([root])) { RFC5280Policy(validationTime: date) }
    guard case .validCertificate = await verifier.validate(leafCertificate: leaf, intermediates: CertificateStore([intermediate])) else {
        throw AttestBaselineError.chain
    }
    guard try baselineNonce(leaf) == Array(Crypto.SHA256.hash(data: authData + clientDataHash)) else { throw AttestBaselineError.nonce }
    guard let key = P256.Signing.PublicKey(leaf.publicKey) else { throw AttestBaselineError.key }
    let keyID = Array(Crypto.SHA256.hash(data: key.x963Representation))
    guard authData.count >= 55, Array(authData[0..<32]) == Array(Crypto.SHA256.hash(data: Array(appID.utf8))),
        authData[33..<37].allSatisfy({ $0 == 0 }), Array(authData[37..<53]) == Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
    else { throw AttestBaselineError.authData }
    let length = Int(authData[53]) << 8 | Int(authData[54])
    guard authData.count >= 55 + length, Array(authData[55..<(55 + length)]) == keyID else { throw AttestBaselineError.key }
    return keyID
}

/// One assertion verified with swift-crypto; returns the new counter.
func baselineAssertion(_ object: [UInt8], clientDataHash: [UInt8], key: P256.Signing.PublicKey, appID: String, previous: UInt32) throws
    -> UInt32
{
    let value = try CBOR.decode(object)
    guard let signature = value["signature"]?.bytesValue, let authData = value["authenticatorData"]?.bytesValue, authData.count >= 37
    else { throw AttestBaselineError.format }
    let nonce = Array(Crypto.SHA256.hash(data: authData + clientDataHash))
    let ecdsa = try P256.Signing.ECDSASignature(derRepresentation: signature)
    guard key.isValidSignature(ecdsa, for: nonce) else { throw AttestBaselineError.signature }
    guard Array(authData[0..<32]) == Array(Crypto.SHA256.hash(data: Array(appID.utf8))) else { throw AttestBaselineError.authData }
    let counter = authData[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    guard counter > previous else { throw AttestBaselineError.authData }
    return counter
}

/// The App Attest rows: attestation and assertion verification per second.
func appAttestRows(seconds: Double) async throws -> [Row] {
    let now = Int64(Date().timeIntervalSince1970)
    let pki = try AppleShapedAttestationPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
    let appID = AppAttestAppID(teamID: "ABCDE12345", bundleID: "com.example.bench")
    let credentialKey = ECDSAPrivateKey.generate(curve: .p256)
    let clientDataHash = SigilCore.SHA256.hash(Array("challenge".utf8))
    let object = try pki.attestation(
        credentialKey: credentialKey.publicKey, appID: appID.description, clientDataHash: clientDataHash, notBefore: now - 3600,
        notAfter: now + 3600)
    let assertion = AppleShapedAttestationPKI.assertion(
        key: credentialKey, appID: appID.description, counter: 1, clientDataHash: clientDataHash)
    let sigilAttest = AttestationVerifier(testRoot: pki.root, appID: appID, environment: .production)
    let sigilAssert = AssertionVerifier(appID: appID)
    let root = try X509.Certificate(derEncoded: pki.root.derBytes)
    let theirKey = try P256.Signing.PublicKey(x963Representation: credentialKey.publicKey.uncompressedRepresentation)
    let date = Date(timeIntervalSince1970: Double(now))

    // Both sides accept the data before anything is timed.
    let ours = try sigilAttest.verify(object, clientDataHash: clientDataHash, at: now)
    let theirs = try await baselineAttestation(object, clientDataHash: clientDataHash, root: root, appID: appID.description, at: date)
    guard ours.keyID == theirs else { throw AttestBaselineError.key }
    _ = try sigilAssert.verify(assertion, clientDataHash: clientDataHash, publicKey: credentialKey.publicKey, previousCounter: 0)
    _ = try baselineAssertion(assertion, clientDataHash: clientDataHash, key: theirKey, appID: appID.description, previous: 0)

    var timing = AsyncHarness(seconds: seconds)
    let attestSigil = await timing.opsPerSecond {
        ((try? sigilAttest.verify(object, clientDataHash: clientDataHash, at: now)) != nil) ? 1 : 0
    }
    let attestBaseline = await timing.opsPerSecond {
        ((try? await baselineAttestation(object, clientDataHash: clientDataHash, root: root, appID: appID.description, at: date)) != nil)
            ? 1 : 0
    }
    let assertSigil = await timing.opsPerSecond {
        ((try? sigilAssert.verify(assertion, clientDataHash: clientDataHash, publicKey: credentialKey.publicKey, previousCounter: 0))
            != nil) ? 1 : 0
    }
    let assertBaseline = await timing.opsPerSecond {
        ((try? baselineAssertion(assertion, clientDataHash: clientDataHash, key: theirKey, appID: appID.description, previous: 0)) != nil)
            ? 1 : 0
    }
    return [
        Row(
            name: "App Attest attestation verify", sigil: attestSigil, reference: attestBaseline,
            referenceName: "swift-certificates + swift-crypto, same steps", bytesPerOp: 0),
        Row(
            name: "App Attest assertion verify", sigil: assertSigil, reference: assertBaseline,
            referenceName: "swift-crypto, same steps", bytesPerOp: 0),
    ]
}
