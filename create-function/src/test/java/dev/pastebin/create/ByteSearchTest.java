package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteSearchTest {

    private static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static int search(String pattern, String body, int from, int to) {
        return ByteSearch.of(latin1(pattern)).indexIn(latin1(body), from, to);
    }

    @Test
    void findsTheFirstWholeOccurrenceWithinTheRange() {
        assertEquals(0, search("ab", "abab", 0, 4));
        assertEquals(2, search("ab", "abab", 1, 4));
        assertEquals(-1, search("ab", "abab", 3, 4));
        assertEquals(-1, search("ab", "abab", 0, 1), "an occurrence must end before the range does");
        assertEquals(-1, search("abc", "ab", 0, 2));
        assertEquals(2, search("aab", "aaaab", 0, 5), "after partial matches that overlap the real one");
        assertEquals(4, search("abab", "abacabab", 0, 8));
        assertEquals(2, search("\r\n\r\n", "a\r\r\n\r\nb", 0, 7));
    }

    /** Against String.indexOf on small alphabets, where periodic patterns and near misses are common. */
    @Test
    void agreesWithTheNaiveSearchOnRandomInput() {
        Random random = new Random(20261127);
        for (int round = 0; round < 20_000; round++) {
            String alphabet = round % 2 == 0 ? "ab" : "-\r\nx";
            String pattern = randomText(random, alphabet, 1 + random.nextInt(6));
            String body = randomText(random, alphabet, random.nextInt(40));
            int from = random.nextInt(body.length() + 1);
            int expected = body.indexOf(pattern, from);
            assertEquals(
                    expected, search(pattern, body, from, body.length()), pattern + " in " + body + " from " + from);
        }
    }

    /** The shape that made the old search quadratic: runs one byte short of the pattern, over and over. */
    @Test
    void nearMissesOfALongPatternAreNoMatch() {
        String delimiter = "-".repeat(72);
        String body = ("-".repeat(71) + "x").repeat(20_000);
        assertEquals(-1, search(delimiter, body, 0, body.length()));
        assertEquals(body.length(), search(delimiter, body + delimiter, 0, body.length() + 72));
    }

    private static String randomText(Random random, String alphabet, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
