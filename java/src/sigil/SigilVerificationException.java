package sigil;

import java.util.List;

/**
 * The verifier refused the data (HTTP's 422): "appstore.VERIFICATION_FAILURE",
 * "appstore.INVALID_APP_IDENTIFIER", "pkcs7.…", "appattest.…", "tokens.…", or "service.…" when
 * this door cannot answer the kind (Apple Pay: it holds no merchant keys).
 */
public final class SigilVerificationException extends SigilException {
    private static final long serialVersionUID = 1L;

    SigilVerificationException(String code, String message, List<Failure> failures) {
        super(code, message, failures);
    }
}
