package dev.pastebin.chaos;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.Json;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PasteContentsTest {

    @Test
    void pastesAreValidUtf8WithinTheLimitOfMixedSizesAndScripts() throws CharacterCodingException {
        PasteContents contents = new PasteContents(7);
        int large = 0, larger = 0, json = 0, multiByte = 0, controls = 0;
        for (int i = 0; i < 500; i++) {
            PasteContents.Paste paste = contents.next();
            assertTrue(paste.content().length >= 1 && paste.content().length <= PasteContents.MAX_BYTES);
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(paste.content()))
                    .toString();
            large += paste.content().length > 64 * 1024 ? 1 : 0;
            larger += paste.content().length > 256 * 1024 ? 1 : 0;
            multiByte += text.codePoints().anyMatch(c -> c > 0xFFFF) ? 1 : 0;
            controls += text.chars().anyMatch(c -> c == 0) ? 1 : 0;
            if (paste.contentType().equals("application/json")) {
                json++;
                String decoded = Json.parseOrNull(paste.body()).get("content").asText();
                assertArrayEquals(
                        paste.content(), decoded.getBytes(StandardCharsets.UTF_8), "the JSON carries the content");
            } else {
                assertEquals("text/plain; charset=utf-8", paste.contentType());
                assertArrayEquals(paste.content(), paste.body());
            }
        }
        assertTrue(
                large > 0 && larger > 0 && json > 150 && json < 350 && multiByte > 50 && controls > 20,
                Arrays.toString(new int[] {large, larger, json, multiByte, controls}));
    }

    @Test
    void theSameSeedGivesTheSamePastes() {
        PasteContents a = new PasteContents(3);
        PasteContents b = new PasteContents(3);
        for (int i = 0; i < 20; i++) {
            assertArrayEquals(a.next().body(), b.next().body());
        }
    }
}
