package sigil;

/**
 * A verified App Store Server Notification V2 with its nested signed data verified too:
 * {@link #transaction()} (data.signedTransactionInfo) and {@link #renewalInfo()}
 * (data.signedRenewalInfo), each under the same options; null when the notification carries none.
 */
public final class Notification extends Verification {
    private final Transaction transaction;
    private final RenewalInfo renewalInfo;

    Notification(Verification verification, Transaction transaction, RenewalInfo renewalInfo) {
        super(verification);
        this.transaction = transaction;
        this.renewalInfo = renewalInfo;
    }

    /** "DID_RENEW", "SUBSCRIBED", "REFUND", … */
    public String notificationType() {
        return fact("notificationType");
    }

    public String subtype() {
        return fact("subtype");
    }

    public String notificationUUID() {
        return fact("notificationUUID");
    }

    public Long signedDate() {
        return number("signedDate");
    }

    /** The data member's bundle id. */
    public String bundleId() {
        JsonValue data = data();
        return data == null ? null : data.string("bundleId");
    }

    /** The data member's app Apple ID. */
    public Long appAppleId() {
        JsonValue data = data();
        return data == null ? null : data.number("appAppleId");
    }

    /** The nested transaction, verified; null when the notification has none. */
    public Transaction transaction() {
        return transaction;
    }

    /** The nested renewal info, verified; null when the notification has none. */
    public RenewalInfo renewalInfo() {
        return renewalInfo;
    }

    JsonValue data() {
        JsonValue payload = payload();
        return payload == null ? null : payload.get("data");
    }
}
