package sigil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Conformance/cases.json through the Java door: every request through Sigil.verify (the answer must
 * hold what the case expects, and is written for `conformance.py check`, the arbiter the C and
 * Python doors answer to), then each case the typed API can send through it: the result, or the
 * exception of the right class with the expected code.
 */
class ConformanceTest {
    private static final List<String> answers = new ArrayList<String>();

    @TestFactory
    Stream<DynamicTest> everyCaseThroughTheRawDoor() throws IOException {
        List<DynamicTest> tests = new ArrayList<DynamicTest>();
        for (final TestData.Case c : TestData.cases()) {
            tests.add(DynamicTest.dynamicTest(c.name, () -> {
                String answer = Sigil.verify(c.request);
                synchronized (answers) {
                    answers.add(answer);
                }
                JsonValue parsed = JsonValue.parse(answer);
                assertNull(TestData.holds(parsed, c.expected, ""), c.name + ": " + answer);
                assertEquals(c.status == 200, parsed.get("valid").asBoolean(), c.name);
            }));
        }
        return tests.stream();
    }

    @AfterAll
    static void writeAnswers() throws IOException {
        if (answers.size() == TestData.cases().size()) {
            StringBuilder out = new StringBuilder();
            for (String answer : answers) {
                out.append(answer).append('\n');
            }
            Files.write(TestData.path("sigil.test.answers"), out.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Each case whose request the typed API can write, sent through it. */
    @Test
    void theTypedApiAnswersWhatTheDocumentSays() throws Exception {
        int sent = 0;
        Set<String> codes = new HashSet<String>();
        for (TestData.Case c : TestData.cases()) {
            JsonValue request;
            try {
                request = JsonValue.parse(c.request);
            } catch (IllegalArgumentException notJson) {
                continue; // not JSON, or a duplicate member: no typed call writes that
            }
            if (request.type() != JsonValue.Type.OBJECT || request.get("data") != null && request.string("data") == null) {
                continue;
            }
            String kind = request.string("kind") == null ? "auto" : request.string("kind");
            Options options = options(request);
            if (options == null) {
                continue;
            }
            String data = request.string("data");
            Verification result;
            try {
                switch (kind) {
                    case "auto":
                        result = Sigil.verifySignedData(data, options);
                        break;
                    case "transaction":
                        result = Sigil.verifyTransaction(data, options);
                        break;
                    case "renewal-info":
                        result = Sigil.verifyRenewalInfo(data, options);
                        break;
                    case "receipt":
                        result = Sigil.verifyReceipt(data, options);
                        break;
                    default:
                        continue; // App Attest, Apple Pay, mdoc, an unknown kind: other tests
                }
            } catch (SigilException refused) {
                sent++;
                codes.add(refused.code());
                assertTrue(c.status != 200, c.name + ": refused " + refused);
                String expectedCode = c.expected.get("error").string("code");
                assertEquals(expectedCode, refused.code(), c.name);
                assertEquals(c.status == 400 || c.status == 413, refused instanceof SigilRequestException, c.name);
                continue;
            }
            sent++;
            assertEquals(200, c.status, c.name + ": valid through the typed API");
            assertNull(TestData.holds(JsonValue.parse(result.answerJson()), c.expected, ""), c.name);
            JsonValue answer = JsonValue.parse(result.answerJson());
            assertEquals(answer.string("kind"), result.kind(), c.name);
            assertEquals(answer.string("environment"), result.environment(), c.name);
            assertEquals(answer.string("trust"), result.trust(), c.name);
            assertEquals(answer.get("notEnforced").size(), result.notEnforced().size(), c.name);
        }
        assertTrue(sent >= 15, "only " + sent + " cases went through the typed API");
        assertTrue(codes.contains("appstore.INVALID_APP_IDENTIFIER") && codes.contains("request.invalidMember")
                && codes.contains("request.missingMember") && codes.contains("appstore.VERIFICATION_FAILURE"), codes.toString());
    }

    /** The typed options for a request's members; null when it has one the options do not write. */
    private static Options options(JsonValue request) {
        Options.Builder builder = Options.builder();
        for (String name : request.names()) {
            JsonValue value = request.get(name);
            switch (name) {
                case "kind":
                case "data":
                    break;
                case "bundleId":
                    builder.bundleId(value.asString());
                    break;
                case "appAppleId":
                    builder.appAppleId(value.asLong());
                    break;
                case "at":
                    builder.atSeconds(value.asLong());
                    break;
                case "reportOnly":
                    builder.reportOnly(value.asBoolean());
                    break;
                case "environments":
                case "roots":
                    List<String> list = new ArrayList<String>();
                    for (JsonValue element : value.elements()) {
                        list.add(element.asString());
                    }
                    if (name.equals("roots")) {
                        builder.roots(list.toArray(new String[0]));
                    } else {
                        builder.environments(list.toArray(new String[0]));
                    }
                    break;
                default:
                    return null; // a member the case sends on purpose (misspelt, of another kind)
            }
        }
        return builder.build();
    }

    /** A misspelt member (no typed call writes one) through the raw door. */
    @Test
    void aMisspeltMemberIsRefusedByTheRawDoorNotDropped() {
        String answer = Sigil.verify("{\"data\":\"x.y.z\",\"bundleID\":\"com.example\"}");
        JsonValue parsed = JsonValue.parse(answer);
        if (parsed.get("valid").asBoolean()) {
            fail("a misspelt member was accepted: " + answer);
        }
        assertEquals("request.unknownMember", parsed.get("error").string("code"));
    }
}
