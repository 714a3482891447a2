package sigil;

/** Verified subscription renewal information (JWSRenewalInfo). Dates are milliseconds since 1970; absent facts are null. */
public final class RenewalInfo extends Verification {
    RenewalInfo(Verification verification) {
        super(verification);
    }

    public String originalTransactionId() {
        return fact("originalTransactionId");
    }

    public String productId() {
        return fact("productId");
    }

    public String autoRenewProductId() {
        return fact("autoRenewProductId");
    }

    /** 1: renews, 0: turned off. */
    public Long autoRenewStatus() {
        return number("autoRenewStatus");
    }

    public Long renewalDate() {
        return number("renewalDate");
    }

    public Long signedDate() {
        return number("signedDate");
    }
}
