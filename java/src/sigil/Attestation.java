package sigil;

/** A verified App Attest attestation: store {@link #publicKey()} and {@link #counter()} for the key's assertions. */
public final class Attestation extends Verification {
    Attestation(Verification verification) {
        super(verification);
    }

    /** The key id (base64 of the SHA-256 of the public key). */
    public String keyId() {
        return fact("keyId");
    }

    /** The attested public key (base64 of its X9.62 form). */
    public String publicKey() {
        return fact("publicKey");
    }

    public Long counter() {
        return number("counter");
    }

    /** "TEAMID.bundle.id". */
    public String appId() {
        return fact("appId");
    }

    /** Apple's fraud receipt (base64), for the risk metric. */
    public String receipt() {
        return fact("receipt");
    }
}
