package sigil;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One value of a JSON document, immutable: how this binding reads libSigilC's answers, and how a
 * caller reads an answer's members beyond the typed facts ({@link Verification#payload()}).
 *
 * <p>The reader is strict and bounded, because it is also handed text from outside
 * ({@link #parse}): RFC 8259 grammar only, no duplicate member names, no raw control characters,
 * nesting at most {@link #MAXIMUM_DEPTH} deep (checked before it recurses, so no input can exhaust
 * the stack); anything else is an {@link IllegalArgumentException} naming the offset. Each value
 * keeps its exact text ({@link #json()}).
 */
public final class JsonValue {
    /** The deepest nesting {@link #parse} accepts (libSigilC's own limit for requests is 64). */
    public static final int MAXIMUM_DEPTH = 128;

    /** What a value is. */
    public enum Type { OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL }

    private final Type type;
    private final String source;
    private final int start;
    private final int end;
    private final String text; // a string's value, a number's or a literal's text
    private final Map<String, JsonValue> members;
    private final List<JsonValue> elements;

    private JsonValue(Type type, String source, int start, int end, String text, Map<String, JsonValue> members,
            List<JsonValue> elements) {
        this.type = type;
        this.source = source;
        this.start = start;
        this.end = end;
        this.text = text;
        this.members = members;
        this.elements = elements;
    }

    /** The document {@code json} holds (one value, white space around it allowed). */
    public static JsonValue parse(String json) {
        if (json == null) {
            throw new IllegalArgumentException("JSON: null text");
        }
        Reader reader = new Reader(json);
        reader.space();
        JsonValue value = reader.value(0);
        reader.space();
        if (reader.at != json.length()) {
            throw reader.error("text after the value");
        }
        return value;
    }

    public Type type() {
        return type;
    }

    public boolean isNull() {
        return type == Type.NULL;
    }

    /** The exact text of this value in the document it was read from. */
    public String json() {
        return source.substring(start, end);
    }

    /** A string's value; {@link IllegalStateException} for any other type. */
    public String asString() {
        expect(Type.STRING);
        return text;
    }

    /** A number's text as the document wrote it. */
    public String numberText() {
        expect(Type.NUMBER);
        return text;
    }

    /** An integral number that fits a long; {@link IllegalStateException} otherwise. */
    public long asLong() {
        expect(Type.NUMBER);
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException notIntegral) {
            throw new IllegalStateException("JSON: " + text + " is not an integer that fits a long");
        }
    }

    public boolean asBoolean() {
        expect(Type.BOOLEAN);
        return "true".equals(text);
    }

    /** An object's member, or null when it has none of that name (or is no object). */
    public JsonValue get(String name) {
        return members == null ? null : members.get(name);
    }

    /** An array's element. */
    public JsonValue get(int index) {
        expect(Type.ARRAY);
        return elements.get(index);
    }

    /** An array's length or an object's member count; 0 for anything else. */
    public int size() {
        return members != null ? members.size() : elements != null ? elements.size() : 0;
    }

    /** An object's member names in document order. */
    public Set<String> names() {
        expect(Type.OBJECT);
        return members.keySet();
    }

    /** An array's elements. */
    public List<JsonValue> elements() {
        expect(Type.ARRAY);
        return elements;
    }

    /** The string member {@code name}, or null when absent, null or not a string. */
    public String string(String name) {
        JsonValue value = get(name);
        return value != null && value.type == Type.STRING ? value.text : null;
    }

    /** The integral number member {@code name}, or null when absent, null or not such a number. */
    public Long number(String name) {
        JsonValue value = get(name);
        if (value == null || value.type != Type.NUMBER) {
            return null;
        }
        try {
            return Long.valueOf(value.text);
        } catch (NumberFormatException notIntegral) {
            return null;
        }
    }

    /** The boolean member {@code name}, or null when absent or not a boolean. */
    public Boolean bool(String name) {
        JsonValue value = get(name);
        return value != null && value.type == Type.BOOLEAN ? Boolean.valueOf(value.asBoolean()) : null;
    }

    @Override
    public String toString() {
        return json();
    }

    private void expect(Type wanted) {
        if (type != wanted) {
            throw new IllegalStateException("JSON: a " + type + " where a " + wanted + " was expected");
        }
    }

    /** Recursive descent; depth checked before each nested value. */
    private static final class Reader {
        final String text;
        int at;

        Reader(String text) {
            this.text = text;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON at offset " + at + ": " + what);
        }

        void space() {
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    return;
                }
                at++;
            }
        }

        JsonValue value(int depth) {
            if (at >= text.length()) {
                throw error("unexpected end");
            }
            char c = text.charAt(at);
            int start = at;
            switch (c) {
                case '{':
                    return object(depth + 1);
                case '[':
                    return array(depth + 1);
                case '"':
                    String value = string();
                    return new JsonValue(Type.STRING, text, start, at, value, null, null);
                case 't':
                    return literal("true", Type.BOOLEAN);
                case 'f':
                    return literal("false", Type.BOOLEAN);
                case 'n':
                    return literal("null", Type.NULL);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw error("unexpected character U+" + Integer.toHexString(c));
            }
        }

        private JsonValue literal(String word, Type type) {
            int start = at;
            if (!text.startsWith(word, at)) {
                throw error("not a JSON value");
            }
            at += word.length();
            return new JsonValue(type, text, start, at, word, null, null);
        }

        private JsonValue object(int depth) {
            if (depth > MAXIMUM_DEPTH) {
                throw error("nested deeper than " + MAXIMUM_DEPTH);
            }
            int start = at++;
            Map<String, JsonValue> members = new LinkedHashMap<String, JsonValue>();
            space();
            if (at < text.length() && text.charAt(at) == '}') {
                at++;
                return new JsonValue(Type.OBJECT, text, start, at, null, Collections.unmodifiableMap(members), null);
            }
            while (true) {
                space();
                if (at >= text.length() || text.charAt(at) != '"') {
                    throw error("a member name was expected");
                }
                int nameAt = at;
                String name = string();
                space();
                if (at >= text.length() || text.charAt(at) != ':') {
                    throw error("':' was expected");
                }
                at++;
                space();
                JsonValue value = value(depth);
                if (members.put(name, value) != null) {
                    at = nameAt;
                    throw error("duplicate member name");
                }
                space();
                if (at < text.length() && text.charAt(at) == ',') {
                    at++;
                    continue;
                }
                if (at < text.length() && text.charAt(at) == '}') {
                    at++;
                    return new JsonValue(Type.OBJECT, text, start, at, null, Collections.unmodifiableMap(members), null);
                }
                throw error("',' or '}' was expected");
            }
        }

        private JsonValue array(int depth) {
            if (depth > MAXIMUM_DEPTH) {
                throw error("nested deeper than " + MAXIMUM_DEPTH);
            }
            int start = at++;
            List<JsonValue> elements = new ArrayList<JsonValue>();
            space();
            if (at < text.length() && text.charAt(at) == ']') {
                at++;
                return new JsonValue(Type.ARRAY, text, start, at, null, null, Collections.unmodifiableList(elements));
            }
            while (true) {
                space();
                elements.add(value(depth));
                space();
                if (at < text.length() && text.charAt(at) == ',') {
                    at++;
                    continue;
                }
                if (at < text.length() && text.charAt(at) == ']') {
                    at++;
                    return new JsonValue(Type.ARRAY, text, start, at, null, null, Collections.unmodifiableList(elements));
                }
                throw error("',' or ']' was expected");
            }
        }

        private String string() {
            at++; // the opening quote
            StringBuilder out = new StringBuilder();
            while (true) {
                if (at >= text.length()) {
                    throw error("unterminated string");
                }
                char c = text.charAt(at++);
                if (c == '"') {
                    return out.toString();
                }
                if (c < 0x20) {
                    at--;
                    throw error("a control character in a string");
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (at >= text.length()) {
                    throw error("unterminated escape");
                }
                char escape = text.charAt(at++);
                switch (escape) {
                    case '"':
                    case '\\':
                    case '/':
                        out.append(escape);
                        break;
                    case 'b':
                        out.append('\b');
                        break;
                    case 'f':
                        out.append('\f');
                        break;
                    case 'n':
                        out.append('\n');
                        break;
                    case 'r':
                        out.append('\r');
                        break;
                    case 't':
                        out.append('\t');
                        break;
                    case 'u':
                        if (at + 4 > text.length()) {
                            throw error("a short \\u escape");
                        }
                        int unit = 0;
                        for (int index = 0; index < 4; index++) {
                            int digit = Character.digit(text.charAt(at + index), 16);
                            if (digit < 0) {
                                throw error("a \\u escape that is not hexadecimal");
                            }
                            unit = unit * 16 + digit;
                        }
                        at += 4;
                        out.append((char) unit);
                        break;
                    default:
                        at--;
                        throw error("an unknown escape");
                }
            }
        }

        private JsonValue number() {
            int start = at;
            if (text.charAt(at) == '-') {
                at++;
            }
            if (at < text.length() && text.charAt(at) == '0') {
                at++;
            } else if (!digits()) {
                throw error("a number without digits");
            }
            if (at < text.length() && text.charAt(at) == '.') {
                at++;
                if (!digits()) {
                    throw error("a fraction without digits");
                }
            }
            if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
                at++;
                if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
                    at++;
                }
                if (!digits()) {
                    throw error("an exponent without digits");
                }
            }
            return new JsonValue(Type.NUMBER, text, start, at, text.substring(start, at), null, null);
        }

        private boolean digits() {
            int start = at;
            while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
                at++;
            }
            return at > start;
        }
    }
}
