import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCore
import SigilPKCS7
import SigilX509

/// Verifies an App Attest attestation: every step of Apple's "Validating apps that connect to your
/// server", in Apple's order, each recorded in the trace when one is given:
///
/// 1. x5c (credential certificate, then Apple App Attestation CA 1) chains to the Apple App
///    Attestation Root CA at the time given — the root the caller holds (checked against the
///    pinned fingerprint ``AppAttestRoot/sha256Fingerprint``), never one from the object — under
///    ``erasedChainPolicies``;
/// 2. authenticatorData ‖ clientDataHash is composed (clientDataHash as the app passed it to
///    `attestKey`: normally SHA-256 of the server's one-time challenge);
/// 3. nonce = SHA-256 of it;
/// 4. the credential certificate's extension 1.2.840.113635.100.8.2 (`SEQUENCE { [1] EXPLICIT
///    OCTET STRING }`) equals the nonce;
/// 5. the key identifier is SHA-256 of the credential public key (the uncompressed point), and
///    equals the one the app sent when the caller gives it;
/// 6. the RP ID hash equals SHA-256(team id + "." + bundle id);
/// 7. the counter, read as an unsigned big-endian integer, is 0;
/// 8. the AAGUID is the expected environment's;
/// 9. the credential id equals the key identifier;
///
/// and the COSE key in the authenticator data is the certificate's key. The authenticator-data
/// extensions are judged by the verifier's ``AppAttestPolicy`` (by default reported only), and the
/// certificate's app and OS information is decoded and reported. The receipt
/// is returned for ``AttestationReceiptVerifier``; it is not checked here.
///
/// Variable time: every input is public (the comparisons are of public hashes).
public struct AttestationVerifier: Sendable {
    /// The rules the x5c chain is validated under: RFC 5280 with one named relaxation —
    /// `missingKeyIdentifiers`, because Apple's credential certificates carry no
    /// authorityKeyIdentifier (Apple's 2026 sample) — and `MarkerExtensionPolicy.appAttestCredential`
    /// (exactly three certificates, the nonce extension on the credential certificate). Validity
    /// dates, signatures, cA, pathLen, keyCertSign and critical extensions are checked as always.
    public static let erasedChainPolicies: [AnyCertificatePolicy] = [
        AnyCertificatePolicy(RFC5280Policy(relaxations: [.missingKeyIdentifiers])),
        AnyCertificatePolicy(MarkerExtensionPolicy.appAttestCredential),
    ]

    #if !hasFeature(Embedded)
    /// ``erasedChainPolicies`` as the policies they are: RFC 5280 with `missingKeyIdentifiers`
    /// relaxed and `MarkerExtensionPolicy.appAttestCredential`.
    public static let chainPolicies: [any CertificatePolicy] = erasedChainPolicies.map { $0.given }
    #endif

    /// The trust anchor: the Apple App Attestation Root CA (or, with ``init(testRoot:appID:environment:policy:)``, a test root).
    public let root: Certificate
    /// The App ID attestations must be for.
    public let appID: AppAttestAppID
    /// The environment whose AAGUID attestations must carry.
    public let environment: AppAttestEnvironment
    /// What is accepted of the app's validation category and bundle version (authenticator-data
    /// extensions): ``AppAttestPolicy/acceptAllAndReport`` unless the caller names another.
    public let policy: AppAttestPolicy

    /// A verifier trusting `appAttestationRoot`, which must be the Apple App Attestation Root CA:
    /// its SHA-256 fingerprint is checked against ``AppAttestRoot/sha256Fingerprint``
    /// (`rootNotPinned` otherwise). `policy` judges the authenticator-data extensions.
    public init(
        appAttestationRoot: Certificate, appID: AppAttestAppID, environment: AppAttestEnvironment,
        policy: AppAttestPolicy = .acceptAllAndReport
    ) throws(AppAttestError) {
        guard appAttestationRoot.sha256Fingerprint == AppAttestRoot.sha256Fingerprint else {
            throw AppAttestError(
                .rootNotPinned,
                "the root given (\(appAttestationRoot.subject), SHA-256 \(Base16.encode(appAttestationRoot.sha256Fingerprint))) "
                    + "is not the Apple App Attestation Root CA (SHA-256 \(Base16.encode(AppAttestRoot.sha256Fingerprint)))")
        }
        self.init(testRoot: appAttestationRoot, appID: appID, environment: environment, policy: policy)
    }

    /// A verifier trusting `testRoot` without the pin: for test PKIs that mirror Apple's
    /// (SigilTestPKI's `AppleShapedAttestationPKI`), never for attestations from devices.
    public init(
        testRoot: Certificate, appID: AppAttestAppID, environment: AppAttestEnvironment, policy: AppAttestPolicy = .acceptAllAndReport
    ) {
        root = testRoot
        self.appID = appID
        self.environment = environment
        self.policy = policy
    }

    /// Verifies `attestation` (raw CBOR or base64) at `time` (seconds since the epoch).
    /// `clientDataHash` is the bytes the app passed to `attestKey`; `expectedKeyID`, when given,
    /// is the key identifier the app sent with it.
    public func verify(
        _ attestation: [UInt8], clientDataHash: [UInt8], expectedKeyID: [UInt8]? = nil, at time: Int64,
        trace: VerificationTrace? = nil
    ) throws(AppAttestError) -> VerifiedAttestation {
        func fail(_ clause: String, _ check: String, _ error: AppAttestError) -> AppAttestError { error.recorded(in: trace, clause, check) }
        let decodeClause = "Apple App Attest: attestation object (CBOR, RFC 8949; WebAuthn §6.1, §6.5)"
        let object: AttestationObject
        do { object = try AttestationObject(attestation) } catch { throw fail(decodeClause, "decode the attestation object", error) }
        let authData = object.authenticatorData
        guard let credential = authData.attestedCredential else {
            throw fail(
                decodeClause, "decode the attestation object",
                AppAttestError(.malformedAuthenticatorData, "the authenticator data has no attested credential data (flag AT clear)"))
        }
        trace?.pass(
            decodeClause, "decode the attestation object",
            "fmt apple-appattest, \(object.certificates.count) certificate(s) in x5c, receipt \(object.receipt.count) bytes, "
                + "authData \(authData.bytes.count) bytes (flags 0x\(Base16.encode([authData.flags])))")

        // 1. The chain, to the root the caller holds.
        let step1 = "Apple App Attest, attestation step 1"
        let verifier = CertificateVerifier(trustedRoots: [root], policies: AttestationVerifier.erasedChainPolicies)
        let chain: [Certificate]
        switch verifier.verify(
            leaf: object.credentialCertificate, intermediates: Array(object.certificates.dropFirst()), at: time, trace: trace)
        {
        case .valid(let valid):
            chain = valid
            trace?.pass(
                step1, "x5c chains to the App Attestation root at \(time)", valid.map { $0.subject.rfc4514String }.joined(separator: " → "))
        case .invalid(let failures):
            throw fail(
                step1, "x5c chains to the App Attestation root at \(time)",
                AppAttestError(
                    failures.failsOnlyOnValidityPeriod ? .certificateNotValidAtTime : .untrustedChain,
                    "step 1: " + failures.map { $0.description }.joined(separator: "; "), failures: failures))
        }
        let credentialCertificate = object.credentialCertificate
        guard case .ec(let certificateKey) = credentialCertificate.publicKey, certificateKey.curve == .p256 else {
            throw fail(
                step1, "the credential certificate's key",
                AppAttestError(
                    .malformedCertificate, "step 5: the credential certificate's key is \(credentialCertificate.publicKey), not EC P-256"))
        }

        // 2–4. The nonce.
        let composite = authData.bytes + clientDataHash
        trace?.note(
            "Apple App Attest, attestation step 2",
            "authenticatorData (\(authData.bytes.count) bytes) ‖ clientDataHash (\(clientDataHash.count) bytes)")
        let nonce = SHA256.hash(composite)
        trace?.note("Apple App Attest, attestation step 3", "nonce = SHA-256(authenticatorData ‖ clientDataHash) = \(Base16.encode(nonce))")
        let step4 = "Apple App Attest, attestation step 4"
        let info: CredentialCertificateInfo
        do { info = try CredentialCertificateInfo(credentialCertificate) } catch {
            throw fail(step4, "the nonce extension \(AppleOIDs.appAttestNonce.dotted)", error)
        }
        guard info.nonce == nonce else {
            throw fail(
                step4, "the credential certificate's nonce (\(AppleOIDs.appAttestNonce.dotted)) equals the nonce",
                AppAttestError(
                    .nonceMismatch,
                    "step 4: the certificate's nonce \(Base16.encode(info.nonce)) is not SHA-256(authenticatorData ‖ clientDataHash) "
                        + "\(Base16.encode(nonce)): another challenge, or other authenticator data"))
        }
        trace?.pass(step4, "the credential certificate's nonce (\(AppleOIDs.appAttestNonce.dotted)) equals the nonce", Base16.encode(nonce))

        // 5. The key identifier.
        let step5 = "Apple App Attest, attestation step 5"
        let keyID = SHA256.hash(certificateKey.uncompressedRepresentation)
        if let expectedKeyID {
            guard expectedKeyID == keyID else {
                throw fail(
                    step5, "SHA-256 of the credential public key equals the key identifier",
                    AppAttestError(
                        .keyIDMismatch,
                        "step 5: SHA-256 of the credential public key is \(Base16.encode(keyID)), the app sent \(Base16.encode(expectedKeyID))"
                    ))
            }
            trace?.pass(step5, "SHA-256 of the credential public key equals the key identifier", Base16.encode(keyID))
        } else {
            trace?.note(step5, "key identifier = SHA-256 of the credential public key = \(Base16.encode(keyID)) (none given to compare)")
        }

        // 6. The App ID.
        try appID.checkRPIDHash(of: authData, step: "attestation step 6", trace: trace)

        // 7. The counter.
        let step7 = "Apple App Attest, attestation step 7"
        guard authData.signCount == 0 else {
            throw fail(step7, "counter is 0", AppAttestError(.nonZeroCounter, "step 7: the counter is \(authData.signCount), not 0"))
        }
        trace?.pass(step7, "counter is 0", "0 (unsigned big-endian)")

        // 8. The environment.
        let step8 = "Apple App Attest, attestation step 8"
        guard credential.aaguid == environment.aaguid else {
            let found = AppAttestEnvironment(aaguid: credential.aaguid).map { "the \($0.rawValue) AAGUID" } ?? "an unknown AAGUID"
            throw fail(
                step8, "AAGUID is \(environment.rawValue)'s",
                AppAttestError(
                    .environmentMismatch,
                    "step 8: \(found) (\(Base16.encode(credential.aaguid))) where \(environment.rawValue) was expected"))
        }
        trace?.pass(step8, "AAGUID is \(environment.rawValue)'s", Base16.encode(credential.aaguid))

        // 9. The credential id.
        let step9 = "Apple App Attest, attestation step 9"
        guard credential.credentialID == keyID else {
            throw fail(
                step9, "credential id equals the key identifier",
                AppAttestError(
                    .credentialIDMismatch,
                    "step 9: the credential id \(Base16.encode(credential.credentialID)) is not the key identifier \(Base16.encode(keyID))")
            )
        }
        trace?.pass(step9, "credential id equals the key identifier", Base16.encode(keyID))
        guard credential.publicKey == certificateKey else {
            throw fail(
                "WebAuthn §6.5.1", "the COSE key in the authenticator data is the credential certificate's key",
                AppAttestError(
                    .publicKeyMismatch, "the credential public key in the authenticator data is not the credential certificate's key"))
        }
        trace?.pass("WebAuthn §6.5.1", "the COSE key in the authenticator data is the credential certificate's key", "equal")
        let policyReport = try policy.check(authData.extensions, object: "attestation", trace: trace)
        return VerifiedAttestation(
            keyID: keyID, publicKey: certificateKey, environment: environment, counter: authData.signCount, receipt: object.receipt,
            authenticatorData: authData, extensions: authData.extensions, policyReport: policyReport, certificateInfo: info, chain: chain)
    }
}

/// An attestation that passed ``AttestationVerifier``: what the server stores (key id, public key,
/// counter 0, receipt) and what it may report.
public struct VerifiedAttestation: Sendable {
    /// SHA-256 of the credential public key: the key identifier.
    public let keyID: [UInt8]
    /// The credential public key (P-256), for assertions.
    public let publicKey: ECDSAPublicKey
    /// The environment (from the AAGUID, as expected).
    public let environment: AppAttestEnvironment
    /// The counter (0).
    public let counter: UInt32
    /// The fraud-metric receipt (BER CMS), for ``AttestationReceiptVerifier`` and Apple's refresh.
    public let receipt: [UInt8]
    /// The authenticator data as parsed.
    public let authenticatorData: AuthenticatorData
    /// The authenticator-data extensions (validation category, bundle version), when present.
    public let extensions: AuthenticatorExtensions?
    /// The validation category and bundle version as the verifier's ``AppAttestPolicy`` judged them.
    public let policyReport: AppAttestPolicyReport
    /// What the credential certificate says (nonce, app and OS information).
    public let certificateInfo: CredentialCertificateInfo
    /// Credential certificate, intermediate, root.
    public let chain: [Certificate]
}
