package sigil;

/**
 * Java text to the bytes libSigilC reads. A {@code String} is UTF-16 and may hold what UTF-8
 * cannot: an unpaired surrogate. {@code String.getBytes(UTF_8)} would replace it with {@code '?'},
 * quietly turning an invalid request into a different, valid one; here it is written as the three
 * bytes of its code unit (as Python's "surrogatepass" writes it), which is invalid UTF-8, so
 * libSigilC answers it {@code request.invalidJSON} naming the byte offset, as it answers the same
 * bytes from C, Python or HTTP. Every other character is standard UTF-8.
 */
final class Utf8 {
    private Utf8() {}

    /**
     * The UTF-8 of {@code text}, cut after {@code limit} bytes: libSigilC never reads more than its
     * request limit + 1 bytes (sigil.h, LIMITS), so a longer request gets the same answer,
     * {@code request.tooLarge}, from this prefix, and a hostile 1 GB string costs no more than the
     * limit here.
     */
    static byte[] encode(String text, int limit) {
        int length = text.length();
        long worst = Math.min((long) length * 3, (long) limit);
        byte[] out = new byte[(int) worst];
        int at = 0;
        for (int index = 0; index < length && at < limit; index++) {
            char unit = text.charAt(index);
            int point = unit;
            if (Character.isHighSurrogate(unit) && index + 1 < length && Character.isLowSurrogate(text.charAt(index + 1))) {
                point = Character.toCodePoint(unit, text.charAt(index + 1));
                index++;
            }
            if (point < 0x80) {
                out = room(out, at, 1, limit);
                out[at++] = (byte) point;
            } else if (point < 0x800) {
                out = room(out, at, 2, limit);
                at = put(out, at, limit, 0xC0 | (point >> 6), 0x80 | (point & 0x3F));
            } else if (point < 0x10000) { // an unpaired surrogate lands here too: its three bytes
                out = room(out, at, 3, limit);
                at = put(out, at, limit, 0xE0 | (point >> 12), 0x80 | ((point >> 6) & 0x3F), 0x80 | (point & 0x3F));
            } else {
                out = room(out, at, 4, limit);
                at = put(out, at, limit, 0xF0 | (point >> 18), 0x80 | ((point >> 12) & 0x3F), 0x80 | ((point >> 6) & 0x3F),
                        0x80 | (point & 0x3F));
            }
        }
        if (at == out.length) {
            return out;
        }
        byte[] exact = new byte[at];
        System.arraycopy(out, 0, exact, 0, at);
        return exact;
    }

    private static byte[] room(byte[] out, int at, int needed, int limit) {
        if (at + needed <= out.length || out.length >= limit) {
            return out;
        }
        byte[] grown = new byte[(int) Math.min((long) limit, Math.max((long) out.length * 2, (long) at + needed))];
        System.arraycopy(out, 0, grown, 0, at);
        return grown;
    }

    private static int put(byte[] out, int at, int limit, int... bytes) {
        for (int value : bytes) {
            if (at >= limit || at >= out.length) {
                break;
            }
            out[at++] = (byte) value;
        }
        return at;
    }
}
