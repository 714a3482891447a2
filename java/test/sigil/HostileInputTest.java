package sigil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Java door from the attacker's side: each case names what a hostile caller sends and the
 * typed answer it must get; after each, the library must still serve. None may crash the JVM (a
 * crash ends the whole run, failing the step).
 */
class HostileInputTest {
    private static String repeat(String unit, int count) {
        StringBuilder out = new StringBuilder(unit.length() * count);
        for (int index = 0; index < count; index++) {
            out.append(unit);
        }
        return out.toString();
    }

    static Stream<Arguments> documents() {
        return Stream.of(
                Arguments.of("empty", "", "request.invalidJSON"),
                Arguments.of("white space only", " \n\t", "request.invalidJSON"),
                Arguments.of("not JSON", "not json", "request.invalidJSON"),
                Arguments.of("lone high surrogate in a string", "{\"data\":\"x\",\"bundleId\":\"\ud800\"}", "request.invalidJSON"),
                Arguments.of("lone low surrogate in a string", "{\"data\":\"x\",\"bundleId\":\"\udcff\"}", "request.invalidJSON"),
                Arguments.of("reversed surrogate pair", "{\"data\":\"\udc00\ud800\"}", "request.invalidJSON"),
                Arguments.of("high surrogate at the very end", "{\"data\":\"x\"}\ud83d", "request.invalidJSON"),
                Arguments.of("lone surrogate in a member name", "{\"\ud800\":1}", "request.invalidJSON"),
                Arguments.of("NUL smuggling a second document", "{\"data\":\"x\"}\u0000{\"roots\":[\"AAAA\"]}", "request.invalidJSON"),
                Arguments.of("NUL inside a string", "{\"data\":\"x\u0000y\"}", "request.invalidJSON"),
                Arguments.of("10 MB", "{\"data\":\"" + repeat("A", 10_000_000) + "\"}", "request.tooLarge"),
                Arguments.of("4 MiB + 1 byte", "{\"data\":\"" + repeat("A", (4 << 20) - 10) + "\"}", "request.tooLarge"),
                Arguments.of("10 MB of 3-byte characters", "{\"data\":\"" + repeat("\u20ac", 3_500_000) + "\"}", "request.tooLarge"),
                Arguments.of("deep nesting (100,000 arrays)", repeat("[", 100_000) + repeat("]", 100_000), "request.invalidJSON"),
                Arguments.of("deep nesting (30,000 objects)", repeat("{\"data\":", 30_000) + "1" + repeat("}", 30_000), "request.invalidJSON"),
                Arguments.of("65 levels under data", "{\"data\":" + repeat("[", 65) + repeat("]", 65) + "}", "request.invalidJSON"),
                Arguments.of("duplicate member name", "{\"data\":\"x\",\"data\":\"y\"}", "request.invalidJSON"),
                Arguments.of("duplicate trust member", "{\"data\":\"x\",\"roots\":null,\"roots\":[\"AAAA\"]}", "request.invalidJSON"),
                Arguments.of("trailing second document", "{\"data\":\"x\"}{\"roots\":[]}", "request.invalidJSON"),
                Arguments.of("truncated", "{\"data\":\"x\",\"roots\":[", "request.invalidJSON"),
                Arguments.of("not an object: array", "[{\"data\":\"x\"}]", "request.notAnObject"),
                Arguments.of("not an object: string", "\"data\"", "request.notAnObject"),
                Arguments.of("not an object: null", "null", "request.notAnObject"),
                Arguments.of("not an object: number", "42", "request.notAnObject"),
                Arguments.of("no data", "{}", "request.missingMember"),
                Arguments.of("unknown member", "{\"data\":\"x\",\"trustedRoots\":[]}", "request.unknownMember"),
                Arguments.of("a verdict sent as a member", "{\"data\":\"x.y.z\",\"trust\":\"apple\"}", "request.unknownMember"),
                Arguments.of("wrong type: data a number", "{\"data\":5}", "request.invalidMember"),
                Arguments.of("wrong type: roots a string", "{\"data\":\"x\",\"roots\":\"AAAA\"}", "request.invalidMember"),
                Arguments.of("wrong type: environments a string", "{\"data\":\"x\",\"environments\":\"Xcode\"}", "request.invalidMember"),
                Arguments.of("wrong type: at a string", "{\"data\":\"x\",\"at\":\"now\"}", "request.invalidMember"),
                Arguments.of("wrong type: at a fraction", "{\"data\":\"x\",\"at\":1.5}", "request.invalidMember"),
                Arguments.of("wrong type: reportOnly a string", "{\"data\":\"x\",\"reportOnly\":\"true\"}", "request.invalidMember"),
                Arguments.of("roots not a certificate", "{\"data\":\"x\",\"roots\":[\"AAAA\"]}", "request.invalidMember"),
                Arguments.of("an unknown kind", "{\"kind\":\"coupon\",\"data\":\"x\"}", "request.invalidMember"),
                Arguments.of("Apple Pay with roots smuggled", "{\"kind\":\"applepay\",\"data\":\"{}\",\"roots\":[\"AAAA\"]}", "request.invalidMember"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("documents")
    void aHostileDocumentGetsATypedAnswer(String attack, String document, String code) {
        String answer = Sigil.verify(document);
        JsonValue parsed = JsonValue.parse(answer);
        assertFalse(parsed.get("valid").asBoolean(), attack);
        assertEquals(code, parsed.get("error").string("code"), attack + ": " + answer);
        assertTrue(answer.length() < 4096, attack + ": the refusal echoes the request");
        assertStillServes();
    }

    @Test
    void nullIsAnsweredByLibSigilC() {
        String answer = Sigil.verify(null);
        assertEquals("request.missing", JsonValue.parse(answer).get("error").string("code"), answer);
        assertEquals("request.missing", JsonValue.parse(Sigil.mintTokenAnswer(null)).get("error").string("code"));
        assertStillServes();
    }

    @Test
    void theNulAnswerIsPythonsWordForWord() {
        assertEquals("{\"valid\":false,\"error\":{\"code\":\"request.invalidJSON\",\"message\":\"the request holds a NUL byte\",\"failures\":[]}}",
                Sigil.verify("{\"data\":\"x\"}\u0000"));
    }

    /** A surrogate pair is one character (4 bytes of UTF-8), never two invalid halves. */
    @Test
    void aSurrogatePairIsOneCharacterBothWays() {
        SigilVerificationException refused = assertThrows(SigilVerificationException.class, () -> Sigil.verifyTransaction(
                realJws(), Options.builder().bundleId("com.example.\ud83d\ude00").build()));
        assertEquals("appstore.INVALID_APP_IDENTIFIER", refused.code());
        assertTrue(refused.message().contains("com.example.\ud83d\ude00"), refused.message());
    }

    /** The size limit is libSigilC's: a request of exactly 4 MiB is read (and refused for what it holds), 1 byte more is too large. */
    @Test
    void theLimitIsExactlyLibSigilCs() {
        String exact = "{\"data\":\"" + repeat("A", (4 << 20) - 11) + "\"}";
        assertEquals(4 << 20, exact.length());
        String code = JsonValue.parse(Sigil.verify(exact)).get("error").string("code");
        assertNotEquals("request.tooLarge", code);
        String over = "{\"data\":\"" + repeat("\u00e9", 1 << 21) + "\"}"; // 2-byte characters: 4 MiB + 12 bytes
        assertEquals("request.tooLarge", JsonValue.parse(Sigil.verify(over)).get("error").string("code"));
        String token = "{\"token\":\"device-check\",\"key\":\"" + repeat("A", 1 << 16) + "\"}";
        assertEquals("request.tooLarge", JsonValue.parse(Sigil.mintTokenAnswer(token)).get("error").string("code"));
    }

    @Test
    void theTypedApiThrowsTypedExceptions() throws Exception {
        SigilRequestException missing = assertThrows(SigilRequestException.class, () -> Sigil.verifyTransaction(null, null));
        assertEquals("request.missingMember", missing.code());
        assertEquals("request.missingMember", assertThrows(SigilRequestException.class,
                () -> Sigil.verifyReceipt((byte[]) null, Options.DEFAULT)).code());
        assertEquals("request.missing", assertThrows(SigilRequestException.class, () -> Sigil.mintToken(null)).code());
        assertEquals("request.invalidJSON", assertThrows(SigilRequestException.class,
                () -> Sigil.verifyTransaction(realJws(), Options.builder().bundleId("\udcff").build())).code());
        assertEquals("request.invalidJSON", assertThrows(SigilRequestException.class,
                () -> Sigil.verifyTransaction("x\ud800y", null)).code());
        assertEquals("request.tooLarge", assertThrows(SigilRequestException.class,
                () -> Sigil.verifyTransaction(repeat("A", 10_000_000), null)).code());
        assertEquals("request.invalidMember", assertThrows(SigilRequestException.class,
                () -> Sigil.verifyTransaction("x.y.z", Options.builder().environments().build())).code());
        assertEquals("request.invalidMember", assertThrows(SigilRequestException.class,
                () -> Sigil.verifyTransaction("x.y.z", Options.builder().roots((String) null).build())).code());
        assertEquals("request.invalidMember", assertThrows(SigilRequestException.class,
                () -> Sigil.verifyTransaction("x.y.z", Options.builder().environments("LocalTesting").build())).code());
        // Quotes, backslashes and control characters are escaped into the request, never spliced:
        // a bundle id that tries to close the string and add a member is only a wrong bundle id.
        SigilVerificationException spliced = assertThrows(SigilVerificationException.class, () -> Sigil.verifyTransaction(realJws(),
                Options.builder().bundleId("x\",\"reportOnly\":true,\"b\":\"\\\n\u0001").build()));
        assertEquals("appstore.INVALID_APP_IDENTIFIER", spliced.code());
        assertEquals("request.invalidMember", assertThrows(SigilRequestException.class,
                () -> Sigil.verifyTransaction("", null)).code());
        assertEquals("appstore.INVALID_JWT_FORMAT", assertThrows(SigilVerificationException.class,
                () -> Sigil.verifyTransaction("x", null)).code());
        assertStillServes();
    }

    /** The binding's own reader, given hostile text: typed errors, bounded depth, no stack overflow. */
    @Test
    void theAnswerReaderIsBounded() {
        for (String bad : Arrays.asList(repeat("[", 1_000_000), repeat("{\"a\":", 200_000), "{\"a\":1,\"a\":2}", "[1,]", "\"\\x\"",
                "\"\u0001\"", "01", "1.", "-", "tru", "{\"a\"}", "[1] 2", "\"\\u12G4\"", "")) {
            assertThrows(IllegalArgumentException.class, () -> JsonValue.parse(bad), bad.length() > 40 ? bad.substring(0, 40) : bad);
        }
        assertEquals(128, JsonValue.parse(repeat("[", 128) + repeat("]", 128)).json().length() / 2);
        assertThrows(IllegalArgumentException.class, () -> JsonValue.parse(repeat("[", 129) + repeat("]", 129)));
        assertEquals("\ud83d\ude00\"/\n", JsonValue.parse("\"\\ud83d\\ude00\\\"\\/\\n\"").asString());
        assertEquals(Long.MIN_VALUE, JsonValue.parse("-9223372036854775808").asLong());
        assertThrows(IllegalStateException.class, () -> JsonValue.parse("9223372036854775808").asLong());
        assertThrows(IllegalStateException.class, () -> Sigil.parseAnswer("[1]"));
        assertThrows(IllegalStateException.class, () -> Sigil.parseAnswer("{\"valid\":"));
    }

    /** The forged data of Conformance/forged.py: valid only as the trust the request brought, and named so. */
    @Test
    void aSelfMadeRootIsValidOnlyAsRequestRoots() throws Exception {
        Map<String, String> forged = TestData.forged();
        Transaction got = Sigil.verifyTransaction(forged.get("jws"), Options.builder().bundleId("com.victim.bank").appAppleId(42)
                .environments("Production").roots(forged.get("root")).build());
        assertEquals("request-roots", got.trust());
        assertEquals(Arrays.asList("appleRoot"), got.notEnforced());
        assertTrue(Sigil.verify("{\"data\":\"" + forged.get("jws") + "\",\"roots\":[\"" + forged.get("root") + "\"]}")
                .startsWith("{\"valid\":true,\"kind\":\"transaction\",\"environment\":\"Production\",\"trust\":\"request-roots\","));
        SigilVerificationException refused = assertThrows(SigilVerificationException.class, () -> Sigil.verifyTransaction(
                forged.get("jws"), Options.builder().bundleId("com.victim.bank").appAppleId(42).environments("Production").build()));
        assertEquals("appstore.VERIFICATION_FAILURE", refused.code());
        assertFalse(refused.failures().isEmpty());
        Transaction xcode = Sigil.verifyTransaction(forged.get("xcodejws"), Options.builder().environments("Xcode").build());
        assertEquals("xcode", xcode.trust());
        assertEquals(Arrays.asList("bundleId", "appAppleId", "appleRoot"), xcode.notEnforced());
        assertEquals("request.invalidMember", assertThrows(SigilRequestException.class, () -> Sigil.verifyTransaction(
                forged.get("xcodejws"), Options.builder().environments("Xcode").roots(forged.get("root"), forged.get("root")).build())).code());
        assertEquals("service.notConfigured", JsonValue.parse(Sigil.verify(
                "{\"kind\":\"applepay\",\"data\":\"{\\\"version\\\":\\\"EC_v1\\\",\\\"data\\\":\\\"AAAA\\\",\\\"signature\\\":\\\"AAAA\\\",\\\"header\\\":{}}\"}"))
                .get("error").string("code"));
    }

    static String realJws() throws Exception {
        return TestData.text(TestData.path("sigil.test.apple", "real/jws/mingos-app_store_server_api/sandbox-transaction-consumable-2025-02-10.jws")).trim();
    }

    static void assertStillServes() {
        assertTrue(Sigil.verify("{\"data\":\"x\"}").startsWith("{\"valid\":false,\"error\":{\"code\":\"appstore.INVALID_JWT_FORMAT\""));
    }
}
