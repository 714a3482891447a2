package sigil;

import java.time.Instant;

/**
 * What {@link Sigil#mintToken} mints: one of Apple's ES256 tokens, signed with an App Store Connect
 * key (.p8 PEM text). Immutable; built with {@link #builder(String, String, String)}. The key never
 * appears in an answer or an exception; {@link #toString()} leaves it out.
 */
public final class TokenRequest {
    final String token;
    final String key;
    final String keyId;
    final String issuerId;
    final String bundleId;
    final String teamId;
    final String clientId;
    final Long issuedAt;
    final Long lifetime;

    private TokenRequest(Builder builder) {
        token = builder.token;
        key = builder.key;
        keyId = builder.keyId;
        issuerId = builder.issuerId;
        bundleId = builder.bundleId;
        teamId = builder.teamId;
        clientId = builder.clientId;
        issuedAt = builder.issuedAt;
        lifetime = builder.lifetime;
    }

    /**
     * {@code token}: "app-store-server-api", "external-purchase-server-api", "device-check" or
     * "sign-in-with-apple"; {@code key}: the .p8 PEM text; {@code keyId}: its key id.
     */
    public static Builder builder(String token, String key, String keyId) {
        return new Builder(token, key, keyId);
    }

    String json() {
        return new JsonWriter().member("token", token).member("key", key).member("keyId", keyId).member("issuerId", issuerId)
                .member("bundleId", bundleId).member("teamId", teamId).member("clientId", clientId)
                .member("issuedAt", issuedAt).member("lifetime", lifetime).done();
    }

    @Override
    public String toString() {
        return "TokenRequest(" + token + ", keyId " + keyId + ")";
    }

    /** Collects members; not thread-safe (the request it builds is). */
    public static final class Builder {
        private final String token;
        private final String key;
        private final String keyId;
        private String issuerId;
        private String bundleId;
        private String teamId;
        private String clientId;
        private Long issuedAt;
        private Long lifetime;

        private Builder(String token, String key, String keyId) {
            this.token = token;
            this.key = key;
            this.keyId = keyId;
        }

        public Builder issuerId(String issuerId) {
            this.issuerId = issuerId;
            return this;
        }

        public Builder bundleId(String bundleId) {
            this.bundleId = bundleId;
            return this;
        }

        public Builder teamId(String teamId) {
            this.teamId = teamId;
            return this;
        }

        public Builder clientId(String clientId) {
            this.clientId = clientId;
            return this;
        }

        public Builder issuedAt(Instant issuedAt) {
            this.issuedAt = issuedAt == null ? null : Long.valueOf(issuedAt.getEpochSecond());
            return this;
        }

        /** Seconds the token is valid (Apple's limit for the kind applies). */
        public Builder lifetime(long seconds) {
            this.lifetime = Long.valueOf(seconds);
            return this;
        }

        public TokenRequest build() {
            return new TokenRequest(this);
        }
    }
}
