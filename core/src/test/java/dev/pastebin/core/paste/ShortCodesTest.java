package dev.pastebin.core.paste;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.context.ApplicationContext;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShortCodesTest {

    private final ShortCodes codes = new ShortCodes(new PasteProperties(11, 262_144));

    @Test
    void byDefaultACodeIsAtLeast64RandomBits() {
        // Only defaults: no "test" environment, no environment variables, so no datasource either.
        try (var context = ApplicationContext.builder()
                .deduceEnvironment(false)
                .environmentPropertySource(false)
                .start()) {
            String code = context.getBean(ShortCodes.class).next();
            // the only secret of an unlisted paste: one of 62^length codes, drawn uniformly
            double bits = code.length() * Math.log(ShortCodes.ALPHABET.length()) / Math.log(2);
            assertTrue(bits >= 64, code + ": " + bits + " bits");
        }
    }

    @Test
    void codesIssuedWhenTheyHad8CharactersStayWellFormed() {
        assertEquals("Zz9Zz9Zz", codes.requireWellFormed("Zz9Zz9Zz"));
        for (String neither : new String[] {"Zz9Zz9Z", "Zz9Zz9Zz9", "Zz9Zz9Zz9Z", "Zz9Zz9Zz9Zz9"}) {
            assertFalse(codes.isWellFormed(neither), neither + ": a length no code was issued with");
        }
    }

    @Test
    void codesHaveTheConfiguredLengthAndOnlyBase62Characters() {
        for (int i = 0; i < 10_000; i++) {
            String code = codes.next();
            assertEquals(11, code.length());
            assertTrue(code.chars().allMatch(c -> ShortCodes.ALPHABET.indexOf(c) >= 0), code);
            assertTrue(codes.isWellFormed(code));
        }
    }

    @Test
    void lengthIsConfigurable() {
        var longer = new ShortCodes(new PasteProperties(16, 1024));
        assertEquals(16, longer.next().length());
        // raising the length keeps every code issued before readable and deletable
        assertTrue(longer.isWellFormed(codes.next()));
        assertTrue(longer.isWellFormed("Zz9Zz9Zz"));
        assertFalse(longer.isWellFormed(longer.next() + "0"));
        assertFalse(longer.isWellFormed("Zz9Zz9Zz9Z"), "10 characters: never issued");
    }

    @Test
    void everyCharacterIsUsedAboutEquallyOften() {
        // 62 symbols, 620,000 draws: each expected 10,000 times. A skewed generator (modulo bias, a
        // missing range) lands far outside +/-10%; a fair one stays within it with overwhelming probability.
        Map<Character, Integer> counts = new HashMap<>();
        StringBuilder drawn = new StringBuilder();
        while (drawn.length() < 620_000) {
            drawn.append(codes.next());
        }
        drawn.chars().limit(620_000).forEach(c -> counts.merge((char) c, 1, Integer::sum));
        assertEquals(62, counts.size());
        counts.forEach((c, n) -> assertTrue(n > 9_000 && n < 11_000, c + " drawn " + n + " times"));
    }

    @Test
    void codesDoNotRepeatInPractice() {
        var seen = new HashSet<String>();
        for (int i = 0; i < 100_000; i++) {
            assertTrue(seen.add(codes.next()));
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "abc",
                "abcdefghi",
                "abcdefghijkl",
                "abcd-fgh",
                "abcd fgh",
                "abcdéfgh",
                "../../etc",
                "abcdefg_",
                "ABCD%20X",
                "abcdefghij-",
                "abcdefghij k",
                "abcdéfghijk"
            })
    void malformedCodesAreRecognised(String candidate) {
        assertFalse(codes.isWellFormed(candidate));
    }
}
