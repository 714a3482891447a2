package sigil;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Scripts/test-java hands the tests, as system properties: sigil.test.requests (one request per
 * line: `conformance.py requests`), sigil.test.cases (Conformance/cases.json), sigil.test.answers
 * (where the conformance test writes its answers for `conformance.py check`), sigil.test.forged
 * (Conformance/forged.py's "name value" lines), sigil.test.apple and sigil.test.appattest (the
 * third-party data sets), sigil.test.repository, sigil.test.jar and sigil.test.plainjar.
 */
final class TestData {
    private TestData() {}

    static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("the system property " + name + " is not set (run Scripts/test-java)");
        }
        return value;
    }

    static Path path(String property, String... more) {
        return Paths.get(property(property), more);
    }

    static String text(Path path) throws IOException {
        return new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
    }

    /** One case of Conformance/cases.json with its request as conformance.py placed it. */
    static final class Case {
        final String name;
        final String request;
        final int status;
        final JsonValue expected;

        Case(String name, String request, int status, JsonValue expected) {
            this.name = name;
            this.request = request;
            this.status = status;
            this.expected = expected;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static List<Case> cases;

    static synchronized List<Case> cases() throws IOException {
        if (cases == null) {
            JsonValue file = JsonValue.parse(text(path("sigil.test.cases")));
            List<String> requests = Files.readAllLines(path("sigil.test.requests"), StandardCharsets.UTF_8);
            List<JsonValue> all = file.get("cases").elements();
            if (requests.size() != all.size()) {
                throw new IllegalStateException(requests.size() + " requests for " + all.size() + " cases");
            }
            List<Case> out = new ArrayList<Case>();
            for (int index = 0; index < all.size(); index++) {
                JsonValue expect = all.get(index).get("expect");
                out.add(new Case(all.get(index).string("name"), requests.get(index), (int) expect.get("status").asLong(),
                        expect.get("answer")));
            }
            cases = out;
        }
        return cases;
    }

    static Map<String, String> forged() throws IOException {
        Map<String, String> out = new LinkedHashMap<String, String>();
        for (String line : Files.readAllLines(path("sigil.test.forged"), StandardCharsets.UTF_8)) {
            int space = line.indexOf(' ');
            if (space > 0) {
                out.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        return out;
    }

    /**
     * Null when {@code actual} holds {@code expected} (conformance.py's holds: objects member by
     * member, arrays element by element with the same length, everything else equal, booleans apart
     * from numbers, integers apart from fractions); else what differs.
     */
    static String holds(JsonValue actual, JsonValue expected, String path) {
        switch (expected.type()) {
            case OBJECT:
                if (actual.type() != JsonValue.Type.OBJECT) {
                    return path + ": not an object";
                }
                for (String name : expected.names()) {
                    JsonValue found = actual.get(name);
                    if (found == null) {
                        return path + "." + name + ": absent";
                    }
                    String problem = holds(found, expected.get(name), path + "." + name);
                    if (problem != null) {
                        return problem;
                    }
                }
                return null;
            case ARRAY:
                if (actual.type() != JsonValue.Type.ARRAY || actual.size() != expected.size()) {
                    return path + ": not an array of " + expected.size();
                }
                for (int index = 0; index < expected.size(); index++) {
                    String problem = holds(actual.get(index), expected.get(index), path + "[" + index + "]");
                    if (problem != null) {
                        return problem;
                    }
                }
                return null;
            case NUMBER:
                if (actual.type() != JsonValue.Type.NUMBER || integral(actual) != integral(expected)
                        || new java.math.BigDecimal(actual.numberText()).compareTo(new java.math.BigDecimal(expected.numberText())) != 0) {
                    return path + ": " + actual.json() + " is not " + expected.json();
                }
                return null;
            default:
                if (actual.type() != expected.type() || !actual.json().equals(expected.json())
                        && !(actual.type() == JsonValue.Type.STRING && actual.asString().equals(expected.asString()))) {
                    return path + ": " + actual.json() + " is not " + expected.json();
                }
                return null;
        }
    }

    private static boolean integral(JsonValue number) {
        String text = number.numberText();
        return text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
    }
}
