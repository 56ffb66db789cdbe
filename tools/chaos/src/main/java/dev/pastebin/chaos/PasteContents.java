package dev.pastebin.chaos;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.local.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Pastes of mixed sizes and characters, from a seed (a run can be repeated): mostly small, a few up to the
 * content limit (786,240 bytes); ASCII, whitespace and control characters (NUL included), accented Latin, Cyrillic, Arabic,
 * CJK, combining marks and 4-byte emoji. Half are posted as text/plain bytes, half as JSON.
 */
final class PasteContents {

    /** The API's content limit (pastebin.paste.max-content-bytes, by default the largest whose job fits SQS). */
    static final int MAX_BYTES = PasteProperties.MAX_CONTENT_BYTES_CAP;
    /** JSON escapes control characters six bytes each: JSON pastes stay well below the limit. */
    private static final int MAX_JSON_BYTES = 32 * 1024;

    /** What one create sends, and the bytes a read must give back. */
    record Paste(byte[] content, String contentType, byte[] body) {}

    private static final int[][] CODE_POINT_RANGES = {
        {0x20, 0x7E},
        {0x20, 0x7E},
        {0x20, 0x7E}, // ASCII, the most common
        {0x00, 0x1F}, // controls: NUL, tab, newline, ...
        {0xC0, 0x17F}, // accented Latin
        {0x400, 0x4FF}, // Cyrillic
        {0x600, 0x6FF}, // Arabic (right to left)
        {0x300, 0x36F}, // combining marks
        {0x4E00, 0x9FFF}, // CJK, 3 bytes each
        {0x1F300, 0x1FAFF}, // emoji, 4 bytes each
    };

    private final SplittableRandom random;

    PasteContents(long seed) {
        this.random = new SplittableRandom(seed);
    }

    synchronized Paste next() {
        boolean json = random.nextBoolean();
        int bytes = Math.min(size(), json ? MAX_JSON_BYTES : MAX_BYTES);
        byte[] content = text(bytes).getBytes(StandardCharsets.UTF_8);
        if (!json) {
            return new Paste(content, "text/plain; charset=utf-8", content);
        }
        try {
            byte[] body = Json.MAPPER.writeValueAsBytes(Map.of("content", new String(content, StandardCharsets.UTF_8)));
            return new Paste(content, "application/json", body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * 60 % up to 200 bytes, 25 % up to 8 KiB, 10 % up to 64 KiB, 4 % up to 256 KiB, 1 % up to the limit: the mean
     * text paste grows from about 13 KiB (5 % up to 256 KiB) to about 16 KiB, so a short chaos run takes about as long.
     */
    private int size() {
        int bucket = random.nextInt(100);
        if (bucket < 60) {
            return 1 + random.nextInt(200);
        } else if (bucket < 85) {
            return 200 + random.nextInt(8 * 1024 - 200);
        } else if (bucket < 95) {
            return 8 * 1024 + random.nextInt(56 * 1024);
        } else if (bucket < 99) {
            return 64 * 1024 + random.nextInt(192 * 1024);
        }
        return 256 * 1024 + random.nextInt(MAX_BYTES - 256 * 1024 + 1);
    }

    /** Text of at most {@code maxBytes} UTF-8 bytes (and at least one character), in runs of one script. */
    private String text(int maxBytes) {
        StringBuilder text = new StringBuilder();
        int used = 0;
        while (true) {
            int[] range = CODE_POINT_RANGES[random.nextInt(CODE_POINT_RANGES.length)];
            int run = 1 + random.nextInt(40);
            for (int i = 0; i < run; i++) {
                int codePoint = range[0] + random.nextInt(range[1] - range[0] + 1);
                int length = Character.toString(codePoint).getBytes(StandardCharsets.UTF_8).length;
                if (used + length > maxBytes) {
                    return text.isEmpty() ? "x" : text.toString();
                }
                text.appendCodePoint(codePoint);
                used += length;
            }
        }
    }
}
