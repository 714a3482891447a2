package sigil;

/** A verified App Store transaction (JWSTransaction). Dates are milliseconds since 1970; absent facts are null. */
public final class Transaction extends Verification {
    Transaction(Verification verification) {
        super(verification);
    }

    public String transactionId() {
        return fact("transactionId");
    }

    public String originalTransactionId() {
        return fact("originalTransactionId");
    }

    public String bundleId() {
        return fact("bundleId");
    }

    public String productId() {
        return fact("productId");
    }

    /** "Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription". */
    public String type() {
        return fact("type");
    }

    public Long purchaseDate() {
        return number("purchaseDate");
    }

    public Long expiresDate() {
        return number("expiresDate");
    }

    public Long revocationDate() {
        return number("revocationDate");
    }

    public Long signedDate() {
        return number("signedDate");
    }

    public String appAccountToken() {
        return fact("appAccountToken");
    }
}
