package sigil;

/** One typed reason a certificate chain failed: what went wrong, and the rule it broke. Immutable. */
public final class Failure {
    private final String reason;
    private final String rule;

    Failure(String reason, String rule) {
        this.reason = reason;
        this.rule = rule;
    }

    /** What went wrong ("no path to a trusted root: …"). */
    public String reason() {
        return reason;
    }

    /** The rule it broke ("RFC 5280 §6.1 (path to a trust anchor)"). */
    public String rule() {
        return rule;
    }

    @Override
    public String toString() {
        return reason + " [" + rule + "]";
    }
}
