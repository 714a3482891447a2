import SigilASN1
import SigilAppAttest
import SigilAppStore
import SigilApplePKI
import SigilApplePay
import SigilCBOR
import SigilCOSE
import SigilCRL
import SigilCipher
import SigilCore
import SigilJOSE
import SigilKeys
import SigilMdoc
import SigilOCSP
import SigilPKCS7
import SigilReceipts
import SigilService
import SigilTestPKI
import SigilTokens
import SigilX509

/// What each libFuzzer target does with one input (Fuzz/README.md). Every function takes any
/// bytes and must return normally: a trap, a crash or a sanitizer report is a finding. The same
/// functions run over the committed regression inputs in the unit tests (SigilFuzzTests), so a
/// fixed finding stays fixed in every build, fuzzing or not.
public enum FuzzHarness {
    /// The targets by name, in the order Fuzz/run runs them.
    public static let targets: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("der", der), ("certificate", certificate), ("chain", chain), ("ocsp", ocsp), ("receipt", receipt), ("jws", jws),
        ("external-purchase-token", externalPurchaseToken), ("crl", crl), ("cbor", cbor),
        ("appattest", appAttest), ("request", request), ("applepay", applePay), ("mdoc", mdoc), ("hpke", hpke),
    ]

    /// A fixed (seeded) reader key and an Annex C request to a fixed server key: mdoc inputs reach
    /// the deviceMac's ECDH and HKDF, EncryptedResponses the HPKE decapsulation and AES-GCM.
    static let mdocFixture: (reader: ECDSAPrivateKey, server: ECDSAPrivateKey, request: DigitalCredentialsRequest)? = {
        var generator = FixedGenerator(state: 0x3D0C)
        let reader = ECDSAPrivateKey.generate(curve: .p256, using: &generator)
        let server = ECDSAPrivateKey.generate(curve: .p256, using: &generator)
        let documents = [
            DigitalCredentialsRequest.DocumentRequest(
                docType: "org.iso.18013.5.1.mDL", elements: ["org.iso.18013.5.1": ["age_over_18": false]])
        ]
        guard
            let request = try? DigitalCredentialsRequest(
                documents: documents, origin: "https://fuzz.example", recipientKey: server.publicKey, nonce: Array(repeating: 7, count: 16),
                readerAuthentication: nil)
        else { return nil }
        return (reader, server, request)
    }()

    /// A DeviceResponse through every step of ``MdocVerifier`` but trust (no IACA root is trusted,
    /// and the chain is checked last): structure, IssuerAuth, the MSO, digests, DeviceAuth with the
    /// fixed reader key, device-signed elements; the same bytes as a session transcript, an
    /// ephemeral reader key and a COSE_Sign1 / COSE_Mac0.
    public static func mdoc(_ bytes: [UInt8]) {
        guard let fixture = mdocFixture else { return }
        for transcript in [fixture.request.sessionTranscript, try? SessionTranscript(bytes: bytes)].compactMap({ $0 }) {
            _ = try? MdocVerifier(trustedIACARoots: [], relaxations: [.acceptUnverifiedDeviceMAC]).verify(
                deviceResponse: bytes, sessionTranscript: transcript, readerKey: .privateKey(fixture.reader), at: time)
        }
        if let key = try? MdocVerifier.ReaderKey(ephemeralReaderKey: bytes), case .publicKeyOnly(let publicKey) = key {
            _ = publicKey.x.count
        }
        if let message = try? COSESign1(bytes: bytes) { _ = try? message.verify(with: fixture.reader.publicKey) }
        if let message = try? COSEMac0(bytes: bytes) { _ = try? message.verify(key: Array(repeating: 1, count: 32)) }
    }

    /// An ISO/IEC 18013-7 Annex C EncryptedResponse opened with the fixed server key (the CBOR,
    /// HPKE's decapsulation of `enc`, the key schedule, AES-128-GCM), then the same bytes as HPKE's
    /// encapsulated key and ciphertext split at 65.
    public static func hpke(_ bytes: [UInt8]) {
        guard let fixture = mdocFixture else { return }
        _ = try? fixture.request.open(encryptedResponse: bytes, privateKey: fixture.server)
        if bytes.count >= 65 {
            _ = try? HPKE.open(
                Array(bytes[65...]), encapsulatedKey: Array(bytes[..<65]), privateKey: fixture.server, info: [], mode: .base)
        }
    }

    /// A fixed Apple-Pay-shaped PKI and EC merchant key (seeded, so the same every run): tokens
    /// the fuzzer mutates reach the signature, chain, key choice and decryption steps.
    static let applePayFixture: (verifier: PaymentTokenVerifier, decryptor: PaymentTokenDecryptor)? = {
        var generator = FixedGenerator(state: 0xA99E)
        guard let pki = try? AppleShapedPaymentPKI.generate(notBefore: time - 86_400, notAfter: time + 86_400, using: &generator),
            let verifier = try? PaymentTokenVerifier(trustedRoots: [pki.root]),
            let merchant = try? MerchantKey(
                privateKey: .ec(ECDSAPrivateKey.generate(curve: .p256, using: &generator)),
                merchantIdentifierHash: SHA256.hash(Array("merchant.com.example.fuzz".utf8)))
        else { return nil }
        return (verifier, PaymentTokenDecryptor(merchantKeys: [merchant]))
    }()

    /// The Apple Pay token decoder (token JSON or a whole PKPaymentToken), Apple's signature and
    /// chain under the fixed test PKI, the merchant key choice and decryption with the fixed key,
    /// and the decrypted-payment reader on the same bytes (the decryptor's input handling).
    public static func applePay(_ bytes: [UInt8]) {
        if let token = try? PaymentToken(json: bytes), let fixture = applePayFixture {
            _ = token.signedContent.count
            _ = try? fixture.verifier.verify(token, at: time)
            _ = try? fixture.decryptor.decrypt(token)
        }
        if let payment = try? DecryptedPayment(plaintext: bytes) {
            _ = payment.description
            _ = payment.otherMembers.count
        }
    }

    /// A fixed validation time (2025-01-01T00:00:00Z): fuzzing must be deterministic.
    static let time: Int64 = 1_735_689_600

    /// The DER and BER readers, both PEM readers (the general one and the constant-time one key
    /// files use), and key loading from whatever the bytes are. Each reader sees the input once:
    /// key loading already reads everything that does not start with a SEQUENCE tag through
    /// SecretPEM, so SecretPEM is called directly only for the rest.
    public static func der(_ bytes: [UInt8]) {
        if let node = try? DER.parse(bytes) { _ = node.children.count }
        if let node = try? BER.parse(bytes) { _ = node.children.count }
        _ = try? PEMDocument.parseAll(String(decoding: bytes, as: UTF8.self))
        if bytes.first == 0x30 { _ = try? SecretPEM.decode(bytes) }
        _ = try? ECKey(loading: bytes)
    }

    /// The certificate parser and every accessor a verifier or `sigil x509 show` touches.
    public static func certificate(_ bytes: [UInt8]) {
        guard let cert = try? Certificate(derEncoded: bytes) else { return }
        _ = cert.subject.description
        _ = cert.issuer.description
        _ = cert.extensions.count
        _ = cert.basicConstraints
        _ = cert.keyUsage
        _ = cert.extendedKeyUsage
        _ = cert.subjectKeyIdentifier
        _ = cert.authorityKeyIdentifier
        _ = cert.ocspURLs
        _ = cert.crlDistributionPoints
        _ = cert.certificatePolicies
        _ = cert.subjectAlternativeNames
        _ = cert.nameConstraints
        _ = cert.serialNumberHex
        _ = cert.isSelfIssued
        _ = cert.pemRepresentation
    }

    /// The chain verifier on hostile certificates: the input is a run of DER certificates; the
    /// first is trusted, the last is the leaf, the rest are intermediates. RFC 5280 and Apple's
    /// signed-data policy, at a fixed time.
    public static func chain(_ bytes: [UInt8]) {
        let certificates = splitDER(bytes, limit: 6).compactMap { try? Certificate(derEncoded: $0) }
        guard certificates.count >= 2, let root = certificates.first, let leaf = certificates.last else { return }
        let verifier = CertificateVerifier(trustedRoots: [root], policies: [RFC5280Policy(), MarkerExtensionPolicy.appleSignedData])
        _ = verifier.verify(leaf: leaf, intermediates: Array(certificates.dropFirst().dropLast()), at: time)
    }

    /// The OCSP response parser and verifier (with the response's own first certificate as the
    /// certificate asked about and as its issuer).
    public static func ocsp(_ bytes: [UInt8]) {
        guard let response = try? OCSPResponse(derEncoded: bytes) else { return }
        guard let basic = response.basic, let cert = basic.certificates.first else { return }
        _ = basic.nonce
        _ = try? OCSPResponseVerifier().verify(response, certificate: cert, issuer: cert, requestNonce: [1, 2, 3], at: time)
    }

    /// The CRL parser (DER, and PEM through `CRL.load`), every decoded field and extension, every
    /// entry decoded again from the index and looked up by its serial under its issuer, and the
    /// signature check against a fixed certificate (which must simply fail).
    public static func crl(_ bytes: [UInt8]) {
        _ = try? CRL.load(bytes)
        guard let crl = try? CRL(derEncoded: bytes) else { return }
        _ = crl.description
        _ = crl.issuer.rfc4514String
        _ = (crl.crlNumber?.description, crl.deltaCRLIndicator?.description, crl.freshestCRL, crl.authorityKeyIdentifier)
        _ = crl.issuingDistributionPoint?.onlySomeReasons?.description
        _ = crl.unhandledCriticalExtensions
        _ = crl.pemRepresentation
        for entry in crl.entries.prefix(4096) {
            let issuer =
                entry.effectiveCertificateIssuer?.compactMap { if case .directoryName(let n) = $0 { n } else { nil } }.first ?? crl.issuer
            _ = crl.revokedEntry(serialNumber: entry.serialNumber, certificateIssuer: issuer)
            _ = (entry.reason?.description, entry.invalidityDate?.description, entry.unhandledCriticalExtensions)
        }
        if let idp = crl.issuingDistributionPoint?.nameRelativeToCRLIssuer { _ = crl.issuer.appending(relativeName: idp) }
    }

    /// The receipt job as AppReceiptVerifier runs it (CMS SignedData, the receipt payload, the
    /// signature and chain, trusting the message's own certificates; base64 or BER input), under
    /// Apple's profile, the relaxed one and Xcode's certificate as the receipt carries it, report-only
    /// and enforcing a bundle id, the verifyReceipt answer, and legacy receipts.
    public static func receipt(_ bytes: [UInt8]) {
        let every = Set(ReceiptEnvironment.allCases)
        guard let signed = try? CMSSignedData(berEncoded: bytes) else {
            _ = try? LegacyTransactionReceipt(base64: bytes)
            _ = (try? AppReceiptVerifier(trustedRoots: [], identity: .reportOnly, environments: every))?
                .verifyReceiptResponse(bytes, sentTo: .production, requestTime: time)
            return
        }
        let apple = try? AppReceiptVerifier(trustedRoots: signed.certificates, identity: .reportOnly, environments: every)
        _ = try? apple?.verify(bytes, at: time, deviceGUID: [0, 1, 2])
        let relaxed = try? AppReceiptVerifier(
            trustedRoots: signed.certificates, bundleId: "com.example", environments: every,
            signerRequirement: .anyCertificateUnderTrustedRoots, rfc5280Relaxations: Set(RFC5280Policy.Relaxation.allCases))
        _ = try? relaxed?.verify(bytes, deviceGUID: [0, 1, 2])
        _ = try? AppReceiptVerifier(xcode: .carriedByTheData, identity: .enforce(bundleId: "com.example")).verify(bytes)
        _ = apple?.verifyReceiptResponse(bytes, sentTo: .sandbox, requestTime: time)
        _ = try? LegacyTransactionReceipt(base64: bytes)
    }

    /// JOSE: compact JWS, header members, x5c, JWT claims, JWK Sets, the strict JSON parser and the
    /// Decodable layer over it (App Store payload models), and the identity-token checks up to the
    /// key lookup.
    public static func jws(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let jws = try? JWS(compact: text) {
            _ = try? jws.x5c()
            if let json = try? jws.payloadJSON() { _ = try? JWTClaims(json: json) }
            _ = try? JSONValueDecoder().decode(JWSTransactionDecodedPayload.self, fromJSON: jws.payload)
            _ = try? JSONValueDecoder().decode(ResponseBodyV2DecodedPayload.self, fromJSON: jws.payload)
            _ = try? AppleIdentityTokenVerifier(clientIDs: ["a"]).verify(text, keys: JWKS(keys: []), now: Double(time))
        }
        if let json = try? JSONValue(parsing: bytes) { _ = json.serialized }
        if let keys = try? JWKS(parsing: bytes) { for key in keys.keys { _ = try? key.verificationKey() } }
        _ = try? JSONValueDecoder().decode(JWSRenewalInfoDecodedPayload.self, fromJSON: bytes)
        _ = try? JSONValueDecoder().decode(AppTransaction.self, fromJSON: bytes)
    }

    /// The service every door shares (one chain cache, as in the C ABI and the HTTP service).
    static let service = VerificationService(requestTrust: .acceptedAndReported)

    /// SigilService's request decoders (verification and token requests) and the verification
    /// behind a request that decodes; the answer must be one JSON object whose `valid` agrees with
    /// its status, and a refusal must never echo the request.
    public static func request(_ bytes: [UInt8]) {
        for answer in [service.verify(json: bytes), service.mintToken(json: bytes)] {
            guard case .object(let members)? = try? JSONValue(parsing: Array(answer.json.utf8)) else {
                preconditionFailure("SigilService: an answer is not a JSON object")
            }
            let valid = members.first { $0.0 == "valid" }?.1.boolValue
            precondition(valid == (answer.status == .verified), "SigilService: valid and status disagree")
        }
    }

    /// External purchase tokens, strict and lenient.
    public static func externalPurchaseToken(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? ExternalPurchaseToken(token: text)
        _ = try? ExternalPurchaseToken(token: text, allowPaddingAndNewline: true)
    }

    /// The CBOR decoder, strict and with every option opened (indefinite lengths, tags, floats,
    /// deterministic map order), one item at the start of the input, and the encoder as an oracle:
    /// whatever the strict decoder accepts is in preferred serialization, so encoding it again must
    /// give back the input's bytes exactly (a difference traps, a finding like any crash).
    public static func cbor(_ bytes: [UInt8]) {
        if let value = try? CBOR.decode(bytes) {
            precondition(CBOR.encode(value) == bytes, "CBOR: the strict decoder accepted bytes the encoder writes differently")
        }
        let open = CBORDecodingOptions(allowIndefiniteLengths: true, allowTags: true, allowFloats: true, requireSortedMapKeys: true)
        if let value = try? CBOR.decode(bytes, options: open) {
            _ = try? CBOR.decode(CBOR.encode(value), options: open)
        }
        if let (value, end) = try? CBOR.decodePrefix(bytes) {
            precondition(end > 0 && end <= bytes.count, "CBOR: decodePrefix ended outside the input")
            _ = (value["fmt"], value["authData"]?.bytesValue, value["attStmt"]?["x5c"]?.arrayValue)
        }
    }

    /// A fixed App Attest PKI, the same in every run (keys from a fixed seed, RFC 6979 signing),
    /// valid 2020–2040, its credential key, App ID and challenge: the committed `valid-…` inputs
    /// of Fuzz/Regressions/appattest verify under it, so mutations of them reach every step.
    public static let appAttestFixture:
        (pki: AppleShapedAttestationPKI, key: ECDSAPrivateKey, appID: AppAttestAppID, clientDataHash: [UInt8])? = {
            var generator = FixedGenerator(state: 0x5167_A77E_57)
            guard let pki = try? AppleShapedAttestationPKI.generate(notBefore: 1_577_836_800, notAfter: 2_208_988_800, using: &generator)
            else {
                return nil
            }
            return (
                pki, ECDSAPrivateKey.generate(curve: .p256, using: &generator),
                AppAttestAppID(teamID: "ABCDE12345", bundleID: "com.example.fuzz"),
                SHA256.hash(Array("fuzz challenge".utf8))
            )
        }()

    /// The inputs the `appattest` target starts from (committed under Fuzz/Regressions/appattest):
    /// an attestation, an assertion and a fraud receipt that verify under ``appAttestFixture``.
    public static func appAttestExamples() -> [(name: String, bytes: [UInt8])] {
        guard let (pki, key, appID, clientDataHash) = appAttestFixture,
            let attestation = try? pki.attestation(
                credentialKey: key.publicKey, appID: appID.description, clientDataHash: clientDataHash, notBefore: 1_577_836_800,
                notAfter: 2_208_988_800, extensions: AppleShapedAttestationPKI.appleExtensions(category: 4, bundleVersion: "1"),
                receipt: [0x30, 0x80, 0x00, 0x00]),
            let credential = try? pki.credentialCertificate(
                for: key.publicKey, nonce: clientDataHash, notBefore: 1_577_836_800, notAfter: 2_208_988_800),
            let receipt = try? pki.receipt(fields: [
                (2, Array(appID.description.utf8)), (3, credential.derBytes), (6, Array("RECEIPT".utf8)),
                (12, Array("2025-01-01T00:00:00Z".utf8)), (17, Array("2".utf8)),
            ])
        else { return [] }
        let assertion = AppleShapedAttestationPKI.assertion(
            key: key, appID: appID.description, counter: 0x8000_0001, clientDataHash: clientDataHash)
        let extensions = AppleShapedAttestationPKI.appleExtensions(category: 4, bundleVersion: "27.0")
        let withExtensions = AppleShapedAttestationPKI.assertion(
            key: key, appID: appID.description, counter: 0x8000_0002, clientDataHash: clientDataHash, extensions: extensions)
        let authenticatorData = AppleShapedAttestationPKI.authenticatorData(
            appID: appID.description, flags: AppleShapedAttestationPKI.realDeviceAssertionFlags, counter: 3, extensions: extensions)
        return [
            ("valid-attestation", attestation), ("valid-assertion", assertion), ("valid-assertion-extensions", withExtensions),
            ("assertion-authenticator-data", authenticatorData), ("receipt", receipt),
        ]
    }

    /// App Attest with the fixed PKI (``appAttestFixture``): the attestation verifier (strict CBOR,
    /// authenticator data, x5c chain, nonce and every step), the assertion verifier (signature,
    /// RP ID, counter), authenticator data read raw in both forms (the assertion form: 37 bytes,
    /// AT ignored, at most one extensions map), and the fraud-receipt verifier and payload reader.
    public static func appAttest(_ bytes: [UInt8]) {
        guard let (pki, key, appID, clientDataHash) = appAttestFixture else { return }
        for form in [AuthenticatorData.Form.assertion, .attestation] {
            if let parsed = try? AuthenticatorData(bytes, form: form) {
                precondition(parsed.bytes == bytes, "AuthenticatorData: the bytes kept are not the input")
                precondition(form == .attestation || parsed.attestedCredential == nil, "AuthenticatorData: credential data in an assertion")
            }
        }
        let attestation = AttestationVerifier(testRoot: pki.root, appID: appID, environment: .production)
        _ = try? attestation.verify(bytes, clientDataHash: clientDataHash, at: time, trace: VerificationTrace())
        _ = try? AssertionVerifier(appID: appID).verify(bytes, clientDataHash: clientDataHash, publicKey: key.publicKey, previousCounter: 7)
        if bytes.first == 0x30 {
            _ = try? AttestationReceiptVerifier(trustedRoots: [pki.receiptRoot], appID: appID).verify(bytes, now: time, maximumAge: 300)
            _ = try? AttestationReceipt(payload: bytes)
        }
    }

    /// SplitMix64: a fixed sequence for the fixture's keys.
    struct FixedGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Consecutive top-level DER elements (at most `limit`), by their length octets only.
    static func splitDER(_ bytes: [UInt8], limit: Int) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var offset = 0
        while offset + 2 <= bytes.count, parts.count < limit {
            var length = Int(bytes[offset + 1])
            var header = 2
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard count >= 1, count <= 3, offset + 2 + count <= bytes.count else { break }
                length = 0
                for i in 0..<count { length = length << 8 | Int(bytes[offset + 2 + i]) }
                header += count
            }
            guard length <= bytes.count - offset - header else { break }
            parts.append(Array(bytes[offset..<(offset + header + length)]))
            offset += header + length
        }
        return parts
    }
}
