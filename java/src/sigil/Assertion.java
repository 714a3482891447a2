package sigil;

/** A verified App Attest assertion: store {@link #counter()} as the key's new counter (compare-and-set). */
public final class Assertion extends Verification {
    Assertion(Verification verification) {
        super(verification);
    }

    public Long counter() {
        return number("counter");
    }
}
