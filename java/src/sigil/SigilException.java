package sigil;

import java.util.Collections;
import java.util.List;

/**
 * A failure answer of libSigilC: {@link #code()} (stable, "domain.code": compare it),
 * {@link #message()} (for people), {@link #failures()} (the certificate verifier's typed reasons
 * when a chain failed). Thrown as {@link SigilVerificationException} (the data was refused) or
 * {@link SigilRequestException} (the request was wrong). Immutable.
 */
public abstract class SigilException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final String message;
    private final List<Failure> failures;

    SigilException(String code, String message, List<Failure> failures) {
        super(code + ": " + message);
        this.code = code;
        this.message = message;
        this.failures = failures == null ? Collections.<Failure>emptyList() : Collections.unmodifiableList(failures);
    }

    /** The answer's code: "request.invalidMember", "appstore.VERIFICATION_FAILURE", "pkcs7.…", … */
    public String code() {
        return code;
    }

    /** The answer's message (client text in it is escaped and bounded by libSigilC). */
    public String message() {
        return message;
    }

    /** The typed reasons of a chain that did not validate; empty for other failures. */
    public List<Failure> failures() {
        return failures;
    }

    /** The exception an answer's error member calls for: request.* codes are request errors. */
    static SigilException of(String code, String message, List<Failure> failures) {
        return code.startsWith("request.") ? new SigilRequestException(code, message, failures)
                : new SigilVerificationException(code, message, failures);
    }
}
