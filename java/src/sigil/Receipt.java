package sigil;

import java.util.Collections;
import java.util.List;

/** A verified app receipt. Dates are seconds since 1970; absent facts are null. */
public final class Receipt extends Verification {
    Receipt(Verification verification) {
        super(verification);
    }

    public String bundleId() {
        return fact("bundleId");
    }

    /** "Production", "ProductionSandbox", … */
    public String receiptType() {
        return fact("receiptType");
    }

    public String applicationVersion() {
        return fact("applicationVersion");
    }

    public String originalApplicationVersion() {
        return fact("originalApplicationVersion");
    }

    public Long creationDate() {
        return number("creationDate");
    }

    /** The in-app purchase records, each an object (productId, transactionId, purchaseDate, …). */
    public List<JsonValue> inApp() {
        JsonValue list = payload() == null ? null : payload().get("inApp");
        return list == null || list.type() != JsonValue.Type.ARRAY ? Collections.<JsonValue>emptyList() : list.elements();
    }
}
