/*
 * sigil.h: the C ABI of Sigil's verifiers (library product SigilC: libSigilC.so, and the static
 * library product SigilCStatic).
 *
 * Four functions over one request/answer layer (SigilService). A request is a JSON document; so
 * is every answer, byte for byte what the Python package and the HTTP service (POST /v1/verify)
 * return for the same request. The request schema is Conformance/verification-request.schema.json;
 * Conformance/cases.json holds requests and the answers every door must give.
 *
 *   sigil_verify: {"kind": "auto" | "transaction" | "renewal-info" | "notification" |
 *   "app-transaction" | "realtime-request" | "receipt" | "attestation" | "assertion" |
 *   "applepay" | "mdoc", "data": "<JWS, or base64 of the receipt / CBOR object / DeviceResponse>",
 *   "bundleId", "environments", "appAppleId", "roots", "at", "reportOnly", for App Attest
 *   "teamId", "clientData" or "clientDataHash", "keyId", "publicKey", "counter", and for mdoc
 *   "sessionTranscript", "ephemeralReaderKey", "acceptUnverifiedDeviceMAC", "values"} answers
 *     {"valid": true, "kind", "environment" (not for mdoc), "trust", "payload" | "receipt" |
 *      "attestation" | "assertion" | "response", "notEnforced": [...]}
 *   or
 *     {"valid": false, "error": {"code", "message", "failures": [{"reason", "rule"}]}}.
 *   A code "request.*" means the request itself was wrong (NULL, too large, invalid UTF-8, not
 *   JSON, nested too deeply, an unknown or malformed member); any other code is the verifier's
 *   refusal ("appstore.VERIFICATION_FAILURE", "pkcs7.…", "appattest.…", "mdoc.…"). Kind "applepay"
 *   is answered "service.notConfigured": this door holds no merchant keys and decrypts nothing.
 *   Kind "mdoc" (an ISO/IEC 18013-5 DeviceResponse, base64, with "sessionTranscript" and, for a
 *   deviceMac, "ephemeralReaderKey") needs the IACA roots in "roots" (trust "request-roots"):
 *   this door has no roots of its own for it. Element values are answered only with "values".
 *
 * TRUST. "roots", "environments": ["Xcode"] and "unpinnedTestRoot" are trust configuration: they
 *   choose what the data must chain to. Without them the anchor is Apple's root for the kind:
 *   Apple Root CA - G3 (built in) for App Store data, and Apple Inc. Root Certificate (receipts)
 *   or the Apple App Attestation Root CA (attestations, pinned) read from the roots directory
 *   (SIGIL_ROOTS, else $XDG_DATA_HOME/sigil/roots or ~/.local/share/sigil/roots, read at the
 *   first call; `sigil roots install` fills it). The caller of this ABI is the operator, so
 *   request trust is accepted and reported, never hidden: every valid answer names its anchor in
 *   "trust" ("apple", "request-roots", "xcode", "unpinned-test-root", "attested-key"), and
 *   "notEnforced" lists "appleRoot" whenever that anchor is not Apple's (roots that are exactly
 *   Apple's root for the kind by SHA-256 fingerprint answer "apple"; an mdoc has no Apple root
 *   and lists "iacaRoots" for its request roots instead), and "at" when the request's "at" is
 *   more than 60 s from now. A caller that forwards requests from others must
 *   check "trust" (or refuse those members) itself: data signed under a root the sender made is
 *   valid here only as "trust": "request-roots". With ["Xcode"], "roots" holds at most one
 *   certificate (more is "request.invalidMember", never cut to the first).
 *
 * OWNERSHIP. The request stays the caller's: it is read during the call and never kept.
 * sigil_verify and sigil_mint_token return a new NUL-terminated UTF-8 string that the caller
 * owns and releases with sigil_free (not free: the library's allocator is its own business).
 * They return NULL only when memory for the answer cannot be allocated; every other failure,
 * NULL request included, is an answer document. sigil_version returns a static string the caller
 * must not free.
 *
 * THREADS. Every function may be called from any thread, concurrently, with no initialization
 * call. The only state shared between calls is the cache of validated App Store certificate
 * chains, which is locked and keyed by the trusted roots, so concurrent calls with different roots
 * never share a chain. A call never blocks on another except for that lock. The cache keeps a
 * validated chain for SIGIL_CHAIN_CACHE_SECONDS seconds (an environment variable read at the first
 * call: 0 to 86400, 0 turning the cache off; 900 when unset or not such a number); every check but
 * the chain's validation still runs on a cached chain.
 *
 * LIMITS. At most 4 MiB of request are read for sigil_verify (64 KiB for sigil_mint_token): the
 * string is not scanned beyond that, and a longer one is answered "request.tooLarge". JSON
 * nesting deeper than 64 levels, invalid UTF-8 and duplicate member names are refused.
 *
 * SECRETS. sigil_mint_token's request carries an App Store Connect private key (.p8 PEM). The
 * key is loaded by Sigil's constant-time key loader and never appears in an answer or an error
 * message; the caller owns and should wipe the request buffer.
 *
 * STABILITY. These four signatures, the ownership rules above and the meaning of existing
 * request and answer members are stable within a major version of sigil_version(); later minor
 * versions may add request members (optional ones) and answer members, and new error codes.
 * Callers must ignore answer members they do not know.
 */
#ifndef SIGIL_H
#define SIGIL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Verifies the request document; returns the answer document (free it with sigil_free). */
char *sigil_verify(const char *request_json);

/* Mints one of Apple's ES256 tokens: {"token": "app-store-server-api" |
 * "external-purchase-server-api" | "device-check" | "sign-in-with-apple", "key": "<.p8 PEM>",
 * "keyId", "issuerId", "bundleId", "teamId", "clientId", "issuedAt", "lifetime"} answers
 * {"valid": true, "kind", "token"} or the failure document above (free it with sigil_free). */
char *sigil_mint_token(const char *request_json);

/* Releases a string returned by sigil_verify or sigil_mint_token; NULL is ignored. */
void sigil_free(char *answer);

/* Sigil's version ("0.1.0-dev"): static, never freed. */
const char *sigil_version(void);

#ifdef __cplusplus
}
#endif

#endif /* SIGIL_H */
