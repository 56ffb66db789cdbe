package dev.pastebin.create;

/**
 * Finds a byte sequence in a body in linear time (Knuth-Morris-Pratt): each byte of the body is compared a bounded
 * number of times, whatever the sequence and the body, so a body of near misses (a multipart delimiter's prefix
 * over and over) costs no more than any other.
 */
final class ByteSearch {

    private final byte[] pattern;
    /** For each prefix of the pattern, the length of its longest proper prefix that is also its suffix. */
    private final int[] fallback;

    private ByteSearch(byte[] pattern) {
        this.pattern = pattern.clone();
        this.fallback = new int[pattern.length];
        for (int i = 1, matched = 0; i < pattern.length; i++) {
            while (matched > 0 && pattern[i] != pattern[matched]) {
                matched = fallback[matched - 1];
            }
            if (pattern[i] == pattern[matched]) {
                matched++;
            }
            fallback[i] = matched;
        }
    }

    static ByteSearch of(byte[] pattern) {
        if (pattern.length == 0) {
            throw new IllegalArgumentException("an empty pattern");
        }
        return new ByteSearch(pattern);
    }

    int length() {
        return pattern.length;
    }

    /** The first index at or after {@code from} where the pattern lies wholly before {@code to}, or -1. */
    int indexIn(byte[] body, int from, int to) {
        int end = Math.min(to, body.length);
        for (int i = Math.max(from, 0), matched = 0; i < end; i++) {
            while (matched > 0 && body[i] != pattern[matched]) {
                matched = fallback[matched - 1];
            }
            if (body[i] == pattern[matched]) {
                matched++;
            }
            if (matched == pattern.length) {
                return i - pattern.length + 1;
            }
        }
        return -1;
    }

    int indexIn(byte[] body, int from) {
        return indexIn(body, from, body.length);
    }
}
