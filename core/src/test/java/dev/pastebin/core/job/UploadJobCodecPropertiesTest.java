package dev.pastebin.core.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteProperties;
import io.micronaut.serde.ObjectMapper;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

/**
 * The upload-job codec round-trips any paste the create function accepts: any non-empty text (every Unicode
 * code point, control characters and NUL included; empty content is refused with 400 before any job exists)
 * whose UTF-8 bytes are within the default limit (the largest whose job fits 1 MiB), and its
 * message never exceeds the bound the queue's MaximumMessageSize is checked against.
 */
class UploadJobCodecPropertiesTest {

    /** The default pastebin.paste.max-content-bytes. */
    private static final int LIMIT = PasteProperties.MAX_CONTENT_BYTES_CAP;

    private final UploadJobCodec codec = new UploadJobCodec(ObjectMapper.getDefault());

    @Property(tries = 200)
    void anyTextWithinTheLimitRoundTripsByteForByte(
            @ForAll("texts") String text,
            @ForAll @AlphaChars @NumericChars @StringLength(min = 6, max = 32) String shortCode)
            throws MalformedUploadJobException {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        var job = new UploadJob(shortCode, ContentHash.sha256Hex(content), content);

        String wire = codec.encode(job);
        UploadJob decoded = codec.decode(wire);

        assertEquals(job, decoded);
        assertArrayEquals(content, decoded.content());
        assertTrue(
                wire.getBytes(StandardCharsets.UTF_8).length <= UploadJobCodec.maxEncodedSize(content.length),
                wire.getBytes(StandardCharsets.UTF_8).length + " > bound for " + content.length + " bytes");
    }

    /**
     * Whatever else arrives on the queue (any string, a job cut short, JSON that is no job) is refused as
     * malformed, the poison path, and nothing else escapes: the round trip above covers what is a job.
     */
    @Property(tries = 200)
    void anyBodyThatIsNoJobIsRefusedAsMalformed(@ForAll("notJobs") String body) {
        assertThrows(MalformedUploadJobException.class, () -> codec.decode(body), body);
    }

    /**
     * Code points of every plane (a code point is one to four UTF-8 bytes): short texts, and texts filling the
     * limit up to the last byte, where an encoding off by one would show.
     */
    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> codePoints = Arbitraries.integers()
                .between(0, Character.MAX_CODE_POINT)
                .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
                .map(Character::toString);
        Arbitrary<String> anyText =
                codePoints.list().ofMinSize(1).ofMaxSize(2_000).map(parts -> String.join("", parts));
        Arbitrary<String> atTheLimit = codePoints.map(cp -> fill(cp, LIMIT));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, anyText),
                net.jqwik.api.Tuple.of(1, atTheLimit),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().ofMinLength(1).ofMaxLength(LIMIT / 4)));
    }

    /** As many copies of {@code codePoint} as fit {@code limit} bytes, then single-byte padding to exactly the limit. */
    private static String fill(String codePoint, int limit) {
        int width = codePoint.getBytes(StandardCharsets.UTF_8).length;
        return codePoint.repeat(limit / width) + "x".repeat(limit % width);
    }

    /** Random strings, encoded jobs cut anywhere before their end, and JSON that is close to a job but is none. */
    @Provide
    Arbitrary<String> notJobs() {
        Arbitrary<String> cutShort = texts().map(t -> {
                    byte[] content = t.getBytes(StandardCharsets.UTF_8);
                    return codec.encode(new UploadJob("abcdefgh", ContentHash.sha256Hex(content), content));
                })
                .flatMap(wire ->
                        Arbitraries.integers().between(0, wire.length() - 1).map(cut -> wire.substring(0, cut)));
        return Arbitraries.oneOf(
                Arbitraries.strings(),
                cutShort,
                Arbitraries.of(
                        "",
                        " ",
                        "null",
                        "[]",
                        "{}",
                        "{\"version\":2}",
                        "{\"version\":\"1\"}",
                        "{\"version\":1,\"shortCode\":\"a\",\"contentSha256\":\"b\",\"content\":\"!!\"}",
                        "{\"version\":1,\"shortCode\":\" \",\"contentSha256\":\"b\",\"content\":\"\"}"));
    }
}
