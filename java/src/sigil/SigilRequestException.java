package sigil;

import java.util.List;

/**
 * The request itself was wrong (HTTP's 400 or 413): a "request.*" code naming the member —
 * "request.missing", "request.tooLarge", "request.invalidJSON" (invalid UTF-8 included, such as an
 * unpaired UTF-16 surrogate in a Java string), "request.notAnObject", "request.unknownMember",
 * "request.missingMember", "request.invalidMember". The binding's own refusals (a null where a
 * value is required) use these codes too, the one libSigilC gives for the same request.
 */
public final class SigilRequestException extends SigilException {
    private static final long serialVersionUID = 1L;

    SigilRequestException(String code, String message, List<Failure> failures) {
        super(code, message, failures);
    }
}
