import SigilBase
import SigilCore
import SigilKeys
import SigilX509

/// Verifies an App Attest assertion (Apple, "Validating apps that connect to your server",
/// "Verify the assertion"), in Apple's order, each step recorded in the trace when one is given:
///
/// 1. clientDataHash = SHA-256(clientData) (``verify(_:clientData:publicKey:previousCounter:trace:)``
///    hashes it; ``verify(_:clientDataHash:publicKey:previousCounter:trace:)`` takes it);
/// 2. nonce = SHA-256(authenticatorData ‖ clientDataHash);
/// 3. the signature (DER ECDSA P-256) verifies over nonce with the stored public key (the ECDSA
///    message is nonce, so its digest is SHA-256(nonce));
/// 4. the RP ID hash equals SHA-256(App ID);
/// 5. the counter, read as an unsigned big-endian integer, is greater than the stored one;
///
/// and then the authenticator-data extensions, when any, under the verifier's ``AppAttestPolicy``.
/// The authenticator data is read in its assertion form (``AuthenticatorData/Form/assertion``):
/// real devices set flag AT and send the 37 bytes alone.
///
/// Step 6 — the challenge inside clientData is the one the server issued, used once — is the
/// caller's, as is storing the returned counter atomically (compare-and-set). Variable time
/// (public inputs).
public struct AssertionVerifier: Sendable {
    /// The App ID assertions must be for.
    public let appID: AppAttestAppID
    /// What is accepted of the app's validation category and bundle version (authenticator-data
    /// extensions): ``AppAttestPolicy/acceptAllAndReport`` unless the caller names another.
    public let policy: AppAttestPolicy

    /// A verifier for assertions of `appID`, judging extensions with `policy`.
    public init(appID: AppAttestAppID, policy: AppAttestPolicy = .acceptAllAndReport) {
        self.appID = appID
        self.policy = policy
    }

    /// Verifies `assertion` (raw CBOR or base64) over `clientData`, hashing it (step 1).
    public func verify(
        _ assertion: [UInt8], clientData: [UInt8], publicKey: ECDSAPublicKey, previousCounter: UInt32, trace: VerificationTrace? = nil
    ) throws(AppAttestError) -> VerifiedAssertion {
        trace?.note("Apple App Attest, assertion step 1", "clientDataHash = SHA-256(clientData of \(clientData.count) bytes)")
        return try verify(
            assertion, clientDataHash: SHA256.hash(clientData), publicKey: publicKey, previousCounter: previousCounter, trace: trace)
    }

    /// Verifies `assertion` (raw CBOR or base64) given `clientDataHash` = SHA-256(clientData),
    /// against the stored `publicKey` and `previousCounter`; returns the new counter to store.
    public func verify(
        _ assertion: [UInt8], clientDataHash: [UInt8], publicKey: ECDSAPublicKey, previousCounter: UInt32,
        trace: VerificationTrace? = nil
    ) throws(AppAttestError) -> VerifiedAssertion {
        func fail(_ clause: String, _ check: String, _ error: AppAttestError) -> AppAttestError { error.recorded(in: trace, clause, check) }
        let decodeClause = "Apple App Attest: assertion object (CBOR, RFC 8949; WebAuthn §6.1)"
        let object: AssertionObject
        do { object = try AssertionObject(assertion) } catch { throw fail(decodeClause, "decode the assertion", error) }
        let authData = object.authenticatorData
        trace?.pass(
            decodeClause, "decode the assertion",
            "authenticatorData \(authData.bytes.count) bytes (flags 0x\(Base16.encode([authData.flags]))"
                + (authData.attestedCredentialDataFlag ? ", AT set with no credential data, as devices send it" : "")
                + (authData.extensions == nil ? "" : ", one extensions map") + "), signature \(object.signature.count) bytes")

        // 2. The nonce.
        let nonce = SHA256.hash(authData.bytes + clientDataHash)
        trace?.note("Apple App Attest, assertion step 2", "nonce = SHA-256(authenticatorData ‖ clientDataHash) = \(Base16.encode(nonce))")

        // 3. The signature.
        let step3 = "Apple App Attest, assertion step 3; FIPS 186-5 §6.4.2"
        guard publicKey.curve == .p256 else {
            throw fail(step3, "signature", AppAttestError(.invalidSignature, "step 3: the stored key is not P-256"))
        }
        let signature: ECDSASignature
        do { signature = try ECDSASignature(derEncoded: object.signature, curve: .p256) } catch {
            throw fail(
                step3, "signature", AppAttestError(.invalidSignature, "step 3: the signature is not a DER ECDSA-Sig-Value: \(error.reason)")
            )
        }
        guard publicKey.isValidSignatureVartime(signature, for: nonce, hash: .sha256) else {
            throw fail(
                step3, "ECDSA P-256 signature over nonce with the stored key",
                AppAttestError(.invalidSignature, "step 3: the signature does not verify with the stored public key over the nonce"))
        }
        trace?.pass(step3, "ECDSA P-256 signature over nonce with the stored key", "verifies")

        // 4. The App ID.
        try appID.checkRPIDHash(of: authData, step: "assertion step 4", trace: trace)

        // 5. The counter.
        let step5 = "Apple App Attest, assertion step 5"
        guard authData.signCount > previousCounter else {
            throw fail(
                step5, "counter greater than the stored one",
                AppAttestError(
                    .counterNotIncreasing,
                    "step 5: the counter \(authData.signCount) is not greater than the stored \(previousCounter) (a replayed assertion, or a cloned key)"
                ))
        }
        trace?.pass(step5, "counter greater than the stored one", "\(authData.signCount) > \(previousCounter) (unsigned)")
        let policyReport = try policy.check(authData.extensions, object: "assertion", trace: trace)
        return VerifiedAssertion(counter: authData.signCount, authenticatorData: authData, policyReport: policyReport)
    }
}

/// An assertion that passed ``AssertionVerifier``.
public struct VerifiedAssertion: Sendable, Hashable {
    /// The new counter: store it in place of the previous one, atomically (compare-and-set), before
    /// acting on the request.
    public let counter: UInt32
    /// The authenticator data as parsed (its extensions, when present).
    public let authenticatorData: AuthenticatorData
    /// The validation category and bundle version as the verifier's ``AppAttestPolicy`` judged them.
    public let policyReport: AppAttestPolicyReport
}
