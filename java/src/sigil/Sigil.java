package sigil;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Sigil's verifiers from Java: App Store signed data (JWS), app receipts, App Attest attestations
 * and assertions, and Apple's ES256 tokens, through Sigil's C ABI (libSigilC, sigil.h) over JNI.
 * Nothing is verified in Java: every call builds one request document
 * (Conformance/verification-request.schema.json), hands it to libSigilC and reads its answer, the
 * same document the C ABI, the Python package and the HTTP service give for the same request.
 *
 * <p>{@link #verify(String)} is the raw door: request document in, answer document out, exactly as
 * libSigilC wrote it, never an exception for what the request holds. The typed entry points
 * ({@link #verifyTransaction}, {@link #verifyNotification}, {@link #verifyReceipt}, …) write the
 * request for you and return an immutable result, or throw {@link SigilVerificationException}
 * (the data was refused) or {@link SigilRequestException} (the request was wrong).
 *
 * <p>Threads: every method may be called from any thread at once; the only shared state is
 * libSigilC's chain cache, which it locks. Nothing needs closing.
 *
 * <p>Hostile input: a request is bounded by libSigilC (4 MiB for verification, 64 KiB for tokens;
 * no more than that + 1 byte is encoded or copied), nesting is limited, invalid UTF-8 — an unpaired
 * surrogate in a Java string — is answered {@code request.invalidJSON}, and a NUL character (which
 * would cut a C string short) is answered {@code request.invalidJSON} by this binding with
 * Python's words. No request crashes the JVM; the native side keeps no state and frees every
 * answer once.
 *
 * <p>Trust: see {@link Options}. A valid result names its anchor in {@link Verification#trust()};
 * code that forwards requests from others must check it is "apple".
 */
public final class Sigil {
    /** sigil.h, LIMITS: libSigilC reads at most this many bytes of a verification request. */
    static final int VERIFY_LIMIT = 4 << 20;
    /** sigil.h, LIMITS: … and of a token request. */
    static final int MINT_LIMIT = 1 << 16;
    /** Python's answer for the same request (python/sigil/__init__.py), byte for byte. */
    static final String NUL_ANSWER =
            "{\"valid\":false,\"error\":{\"code\":\"request.invalidJSON\",\"message\":\"the request holds a NUL byte\",\"failures\":[]}}";

    private Sigil() {}

    /** The version of the libSigilC loaded ("0.1.0-dev"). */
    public static String version() {
        Native.check();
        return new String(Native.version(), StandardCharsets.UTF_8);
    }

    /** The path of the native library loaded (or "jar:…" when it was extracted from the jar). */
    public static String nativeLibrary() {
        return Native.location();
    }

    /**
     * The answer document of libSigilC's sigil_verify for {@code requestJson}, exactly:
     * {@code {"valid": true, "kind", "environment", "trust", "payload" | "receipt" | …,
     * "notEnforced"}} or {@code {"valid": false, "error": {"code", "message", "failures"}}}. A null
     * request is sent as NULL ({@code request.missing}); nothing in the request makes it throw.
     * Throws only {@link UnsatisfiedLinkError} (no native library) or {@link OutOfMemoryError}.
     */
    public static String verify(String requestJson) {
        return call(requestJson, false);
    }

    /** The answer document of sigil_mint_token for {@code requestJson}, exactly (see {@link #mintToken}). */
    public static String mintTokenAnswer(String requestJson) {
        return call(requestJson, true);
    }

    private static String call(String request, boolean mint) {
        Native.check();
        if (request != null && request.indexOf('\0') >= 0) {
            return NUL_ANSWER;
        }
        byte[] bytes = request == null ? null : Utf8.encode(request, (mint ? MINT_LIMIT : VERIFY_LIMIT) + 1);
        byte[] answer = mint ? Native.mintToken(bytes) : Native.verify(bytes);
        if (mint && bytes != null) {
            Arrays.fill(bytes, (byte) 0); // the .p8 key's copy
        }
        String text = new String(answer, StandardCharsets.UTF_8);
        if (mint) {
            Arrays.fill(answer, (byte) 0); // the token's copy
        }
        return text;
    }

    /** App Store signed data of any kind, told by its members (kind "auto"). */
    public static Verification verifySignedData(String jws, Options options) throws SigilException {
        return appStore("auto", jws, options);
    }

    /** A JWSTransaction (signedTransactionInfo, or what StoreKit 2's Transaction.jwsRepresentation gives). */
    public static Transaction verifyTransaction(String jws, Options options) throws SigilException {
        return new Transaction(appStore("transaction", jws, options));
    }

    /** A JWSRenewalInfo (signedRenewalInfo). */
    public static RenewalInfo verifyRenewalInfo(String jws, Options options) throws SigilException {
        return new RenewalInfo(appStore("renewal-info", jws, options));
    }

    /**
     * An App Store Server Notification V2 (the {@code signedPayload} of its body), and the signed
     * transaction and renewal info nested in its data, each verified under the same options (a
     * nested one that fails fails the whole notification, with its own code).
     */
    public static Notification verifyNotification(String signedPayload, Options options) throws SigilException {
        Verification outer = appStore("notification", signedPayload, options);
        JsonValue payload = outer.payload();
        JsonValue data = payload == null ? null : payload.get("data");
        String signedTransaction = data == null ? null : data.string("signedTransactionInfo");
        String signedRenewal = data == null ? null : data.string("signedRenewalInfo");
        Transaction transaction = signedTransaction == null ? null : verifyTransaction(signedTransaction, options);
        RenewalInfo renewal = signedRenewal == null ? null : verifyRenewalInfo(signedRenewal, options);
        return new Notification(outer, transaction, renewal);
    }

    /** An app receipt as the base64 text apps send (under Apple Inc. Root from the roots directory, SIGIL_ROOTS). */
    public static Receipt verifyReceipt(String base64Receipt, Options options) throws SigilException {
        return new Receipt(appStore("receipt", base64Receipt, options));
    }

    /** An app receipt as DER bytes. */
    public static Receipt verifyReceipt(byte[] receipt, Options options) throws SigilException {
        return verifyReceipt(base64(receipt), options);
    }

    /**
     * An App Attest attestation (its CBOR bytes) for the App ID {@code teamId.bundleId}, under the
     * Apple App Attestation Root (pinned), over {@link Options.Builder#clientData} or
     * {@link Options.Builder#clientDataHash}; {@link Options.Builder#environments} "development"
     * or "production" (default production).
     */
    public static Attestation verifyAttestation(byte[] attestation, String teamId, String bundleId, Options options)
            throws SigilException {
        JsonWriter request = new JsonWriter().member("kind", "attestation").member("data", base64(attestation))
                .member("teamId", teamId).member("bundleId", bundleId);
        return new Attestation(answer(verify(write(request, options))));
    }

    /**
     * An App Attest assertion (its CBOR bytes) by the attested {@code publicKey} (the base64 an
     * attestation's answer gave) whose stored counter is {@code counter}: store the result's
     * counter (compare-and-set). A replay is {@code appattest.counterNotIncreasing}.
     */
    public static Assertion verifyAssertion(byte[] assertion, String teamId, String bundleId, String publicKey, long counter,
            Options options) throws SigilException {
        JsonWriter request = new JsonWriter().member("kind", "assertion").member("data", base64(assertion))
                .member("teamId", teamId).member("bundleId", bundleId).member("publicKey", publicKey)
                .member("counter", Long.valueOf(counter));
        return new Assertion(answer(verify(write(request, options))));
    }

    /** Mints the token {@code request} names and returns the compact JWT. */
    public static String mintToken(TokenRequest request) throws SigilException {
        if (request == null) {
            throw new SigilRequestException("request.missing", "the token request is null", null);
        }
        String json = request.json();
        String answerJson = mintTokenAnswer(json);
        JsonValue answer = parseAnswer(answerJson);
        String token = valid(answer) ? answer.string("token") : null;
        if (token == null) {
            throw failure(answer);
        }
        return token;
    }

    private static Verification appStore(String kind, String data, Options options) throws SigilException {
        if (data == null) {
            throw new SigilRequestException("request.missingMember", "data is required (the JWS, or base64 of the object)", null);
        }
        JsonWriter request = new JsonWriter().member("kind", kind).member("data", data);
        return answer(verify(write(request, options)));
    }

    private static String write(JsonWriter request, Options options) {
        (options == null ? Options.DEFAULT : options).write(request);
        return request.done();
    }

    private static String base64(byte[] bytes) throws SigilRequestException {
        if (bytes == null) {
            throw new SigilRequestException("request.missingMember", "data is required (the JWS, or base64 of the object)", null);
        }
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** The valid answer's result, or its error thrown. */
    static Verification answer(String answerJson) throws SigilException {
        JsonValue answer = parseAnswer(answerJson);
        if (!valid(answer)) {
            throw failure(answer);
        }
        return new Verification(answerJson, answer);
    }

    private static boolean valid(JsonValue answer) {
        return Boolean.TRUE.equals(answer.bool("valid"));
    }

    static JsonValue parseAnswer(String answerJson) {
        JsonValue answer;
        try {
            answer = JsonValue.parse(answerJson);
        } catch (IllegalArgumentException broken) {
            throw new IllegalStateException("sigil: libSigilC's answer is not JSON (" + broken.getMessage() + ")", broken);
        }
        if (answer.type() != JsonValue.Type.OBJECT || answer.bool("valid") == null) {
            throw new IllegalStateException("sigil: libSigilC's answer is not an answer document");
        }
        return answer;
    }

    private static SigilException failure(JsonValue answer) {
        JsonValue error = answer.get("error");
        String code = error == null ? null : error.string("code");
        if (code == null) {
            throw new IllegalStateException("sigil: libSigilC's failure answer has no error code");
        }
        String message = error.string("message");
        List<Failure> failures = new ArrayList<Failure>();
        JsonValue list = error.get("failures");
        if (list != null && list.type() == JsonValue.Type.ARRAY) {
            for (JsonValue failure : list.elements()) {
                failures.add(new Failure(failure.string("reason"), failure.string("rule")));
            }
        }
        return SigilException.of(code, message == null ? "" : message, failures);
    }
}
