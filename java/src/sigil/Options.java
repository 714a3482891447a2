package sigil;

import java.util.ArrayList;
import java.util.Arrays;
import java.time.Instant;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

/**
 * The optional members of a verification request, immutable; built with {@link #builder()}.
 * {@link #DEFAULT} sends none of them.
 *
 * <p>Identity: {@code bundleId}, {@code environments} ("Production", "Sandbox"; "development" or
 * "production" for an attestation) and {@code appAppleId} are checked when given and reported in
 * the answer's {@code notEnforced} when not: a server passes all three.
 *
 * <p>Trust: {@code roots}, {@code environments("Xcode")} and {@code unpinnedTestRoot} are trust
 * configuration — they choose what the data must chain to. libSigilC accepts them and names the
 * anchor in {@link Verification#trust()} ("request-roots", "xcode", "unpinned-test-root") with
 * "appleRoot" in {@link Verification#notEnforced()}. Never build them from what a client sent.
 */
public final class Options {
    /** No optional member: Apple's root for the kind, identity reported rather than enforced. */
    public static final Options DEFAULT = builder().build();

    final String bundleId;
    final List<String> environments;
    final Long appAppleId;
    final List<String> roots;
    final Long at;
    final boolean reportOnly;
    final String clientData;
    final String clientDataHash;
    final String keyId;
    final boolean unpinnedTestRoot;

    private Options(Builder builder) {
        bundleId = builder.bundleId;
        environments = builder.environments;
        appAppleId = builder.appAppleId;
        roots = builder.roots;
        at = builder.at;
        reportOnly = builder.reportOnly;
        clientData = builder.clientData;
        clientDataHash = builder.clientDataHash;
        keyId = builder.keyId;
        unpinnedTestRoot = builder.unpinnedTestRoot;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Writes the members that are set. */
    void write(JsonWriter request) {
        request.member("bundleId", bundleId).member("environments", environments).member("appAppleId", appAppleId)
                .member("roots", roots).member("at", at).flag("reportOnly", reportOnly)
                .member("clientData", clientData).member("clientDataHash", clientDataHash).member("keyId", keyId)
                .flag("unpinnedTestRoot", unpinnedTestRoot);
    }

    /** Collects members; not thread-safe (the {@link Options} it builds is). */
    public static final class Builder {
        private String bundleId;
        private List<String> environments;
        private Long appAppleId;
        private List<String> roots;
        private Long at;
        private boolean reportOnly;
        private String clientData;
        private String clientDataHash;
        private String keyId;
        private boolean unpinnedTestRoot;

        private Builder() {}

        /** The bundle id the data must name. */
        public Builder bundleId(String bundleId) {
            this.bundleId = bundleId;
            return this;
        }

        /** The environments accepted (default Production and Sandbox; an attestation's one of "development", "production"). */
        public Builder environments(String... environments) {
            this.environments = environments == null ? null : Collections.unmodifiableList(new ArrayList<String>(Arrays.asList(environments)));
            return this;
        }

        /** The app's Apple ID (Production data carries it). */
        public Builder appAppleId(long appAppleId) {
            this.appAppleId = Long.valueOf(appAppleId);
            return this;
        }

        /** Trust configuration: roots as PEM text or base64 DER, replacing Apple's root for the kind. */
        public Builder roots(String... roots) {
            this.roots = roots == null ? null : Collections.unmodifiableList(new ArrayList<String>(Arrays.asList(roots)));
            return this;
        }

        /** Trust configuration: roots as DER. */
        public Builder roots(byte[]... roots) {
            if (roots == null) {
                this.roots = null;
                return this;
            }
            List<String> encoded = new ArrayList<String>();
            for (byte[] root : roots) {
                encoded.add(root == null ? null : Base64.getEncoder().encodeToString(root));
            }
            this.roots = Collections.unmodifiableList(encoded);
            return this;
        }

        /** The validation time in seconds since 1970 (default: the payload's signedDate, a receipt's creation date, an attestation's now). */
        public Builder atSeconds(long secondsSince1970) {
            this.at = Long.valueOf(secondsSince1970);
            return this;
        }

        /** The validation time (whole seconds). */
        public Builder at(Instant time) {
            this.at = time == null ? null : Long.valueOf(time.getEpochSecond());
            return this;
        }

        /** Report the bundle id and environment instead of enforcing them. */
        public Builder reportOnly(boolean reportOnly) {
            this.reportOnly = reportOnly;
            return this;
        }

        /** App Attest: the client data (hashed by libSigilC). */
        public Builder clientData(byte[] clientData) {
            this.clientData = clientData == null ? null : Base64.getEncoder().encodeToString(clientData);
            return this;
        }

        /** App Attest: the SHA-256 of the client data. */
        public Builder clientDataHash(byte[] hash) {
            this.clientDataHash = hash == null ? null : Base64.getEncoder().encodeToString(hash);
            return this;
        }

        /** App Attest: the key id the app sent, checked against the attested key. */
        public Builder keyId(byte[] keyId) {
            this.keyId = keyId == null ? null : Base64.getEncoder().encodeToString(keyId);
            return this;
        }

        /** Trust configuration for test PKIs only: trust an attestation's one root without Apple's pin. */
        public Builder unpinnedTestRoot(boolean unpinned) {
            this.unpinnedTestRoot = unpinned;
            return this;
        }

        public Options build() {
            return new Options(this);
        }
    }
}
