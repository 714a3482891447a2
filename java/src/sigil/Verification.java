package sigil;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A valid answer, immutable: what was verified ({@link #kind()}, {@link #environment()}), whose
 * trust it rests on ({@link #trust()}), what was not checked ({@link #notEnforced()}), and the
 * verified content ({@link #payload()}, {@link #payloadJson()}). The subclasses add the facts of
 * their kind. Safe to share between threads.
 */
public class Verification {
    private final String answerJson;
    private final String kind;
    private final String environment;
    private final String trust;
    private final List<String> notEnforced;
    private final JsonValue payload;

    Verification(String answerJson, JsonValue answer) {
        this.answerJson = answerJson;
        this.kind = answer.string("kind");
        this.environment = answer.string("environment");
        this.trust = answer.string("trust");
        List<String> relaxed = new ArrayList<String>();
        JsonValue list = answer.get("notEnforced");
        if (list != null && list.type() == JsonValue.Type.ARRAY) {
            for (JsonValue name : list.elements()) {
                relaxed.add(name.type() == JsonValue.Type.STRING ? name.asString() : name.json());
            }
        }
        this.notEnforced = Collections.unmodifiableList(relaxed);
        JsonValue content = null;
        for (String member : new String[] {"payload", "receipt", "attestation", "assertion", "response"}) {
            if (answer.get(member) != null) {
                content = answer.get(member);
                break;
            }
        }
        this.payload = content;
    }

    Verification(Verification other) {
        this.answerJson = other.answerJson;
        this.kind = other.kind;
        this.environment = other.environment;
        this.trust = other.trust;
        this.notEnforced = other.notEnforced;
        this.payload = other.payload;
    }

    /** "transaction", "renewal-info", "notification", "app-transaction", "realtime-request", "receipt", "attestation", "assertion", "mdoc". */
    public final String kind() {
        return kind;
    }

    /** "Production", "Sandbox", "Xcode", or an attestation's "development"/"production"; null for an assertion. */
    public final String environment() {
        return environment;
    }

    /** The anchor: "apple" unless trust configuration was sent ("request-roots", "xcode", "unpinned-test-root", "attested-key"). */
    public final String trust() {
        return trust;
    }

    /** What was reported instead of enforced: "bundleId", "appAppleId", "appleRoot", "at", … */
    public final List<String> notEnforced() {
        return notEnforced;
    }

    /** The verified content: the answer's payload, receipt, attestation, assertion or response member. */
    public final JsonValue payload() {
        return payload;
    }

    /** That member's exact JSON text, as libSigilC wrote it. */
    public final String payloadJson() {
        return payload == null ? null : payload.json();
    }

    /** The whole answer document, as libSigilC wrote it. */
    public final String answerJson() {
        return answerJson;
    }

    @Override
    public String toString() {
        return answerJson;
    }

    final String fact(String name) {
        return payload == null ? null : payload.string(name);
    }

    final Long number(String name) {
        return payload == null ? null : payload.number(name);
    }
}
