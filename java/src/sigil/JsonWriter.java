package sigil;

import java.util.List;

/** A request document, member by member: the typed entry points' only way to write JSON. */
final class JsonWriter {
    private final StringBuilder out = new StringBuilder(256).append('{');
    private boolean first = true;

    private JsonWriter name(String name) {
        if (!first) {
            out.append(',');
        }
        first = false;
        string(out, name);
        out.append(':');
        return this;
    }

    JsonWriter member(String name, String value) {
        if (value != null) {
            string(name(name).out, value);
        }
        return this;
    }

    JsonWriter member(String name, Long value) {
        if (value != null) {
            name(name).out.append(value.longValue());
        }
        return this;
    }

    /** {@code true} only: a false flag is the schema's default and is left out. */
    JsonWriter flag(String name, boolean value) {
        if (value) {
            name(name).out.append("true");
        }
        return this;
    }

    JsonWriter member(String name, List<String> values) {
        if (values != null) {
            name(name).out.append('[');
            for (int index = 0; index < values.size(); index++) {
                if (index > 0) {
                    out.append(',');
                }
                String value = values.get(index);
                if (value == null) {
                    out.append("null"); // libSigilC refuses it, naming the member
                } else {
                    string(out, value);
                }
            }
            out.append(']');
        }
        return this;
    }

    String done() {
        return out.append('}').toString();
    }

    /**
     * {@code value} as a JSON string: the quote, the backslash and every control character
     * escaped; every other character as it is, unpaired surrogates included, which
     * {@link Utf8#encode} then writes as invalid UTF-8 for libSigilC to refuse (never silently
     * replaced, never escaped into something libSigilC would read differently).
     */
    static void string(StringBuilder out, String value) {
        out.append('"');
        for (int index = 0; index < value.length(); index++) {
            char c = value.charAt(index);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        out.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
