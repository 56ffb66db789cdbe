package dev.pastebin.core.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteProperties;
import io.micronaut.context.ApplicationContext;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UploadJobCodecTest {

    /** SQS's ceiling for one message, whatever a queue's MaximumMessageSize (raised from 256 KiB in 2025). */
    private static final int SQS_MESSAGE_CEILING = 1_048_576;

    private final UploadJobCodec codec = new UploadJobCodec(ObjectMapper.getDefault());

    @Test
    void roundTripsUnicodeAndControlCharactersByteForByte() throws Exception {
        String text =
                "English, Deutsch: äöüß, 日本語, العربية, emoji 🧪👩‍💻, CRLF\r\nTab\tNUL\u0000BEL\u0007 \"quotes\" \\ </script>";
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        var job = new UploadJob("aB3xYz9Q", ContentHash.sha256Hex(content), content);

        UploadJob decoded = codec.decode(codec.encode(job));

        assertEquals(job, decoded);
        assertArrayEquals(content, decoded.content());
    }

    @Test
    void theWireFormIsVersionedJsonWithBase64Content() {
        byte[] content = "hi".getBytes(StandardCharsets.UTF_8);
        String wire = codec.encode(new UploadJob("abcdefgh", ContentHash.sha256Hex(content), content));
        assertTrue(wire.contains("\"version\":1"), wire);
        assertTrue(wire.contains("\"shortCode\":\"abcdefgh\""), wire);
        assertTrue(wire.contains("\"content\":\"aGk=\""), wire);
    }

    /**
     * The default content limit is derived, not chosen: the largest content whose job, for the longest short code,
     * fits SQS's 1 MiB message ceiling; one byte more would not.
     */
    @Test
    void theDefaultLimitIsTheLargestContentWhoseJobFitsOneMebibyte() {
        int limit = defaultContentLimit();
        assertTrue(
                UploadJobCodec.maxEncodedSize(limit) <= SQS_MESSAGE_CEILING,
                "the job of a " + limit + "-byte paste may exceed " + SQS_MESSAGE_CEILING + " bytes");
        assertTrue(
                UploadJobCodec.maxEncodedSize(limit + 1) > SQS_MESSAGE_CEILING,
                "a " + (limit + 1) + "-byte paste's job still fits " + SQS_MESSAGE_CEILING + " bytes: the default "
                        + limit + " is not the largest");
        // and the cap on the configurable limit is that same largest size
        assertEquals(limit, PasteProperties.MAX_CONTENT_BYTES_CAP);
    }

    @Test
    void theWorstCaseAtTheSizeLimitFitsTheQueueMessageLimit() throws IOException {
        // The worst case for a JSON string would be control characters (6 bytes each when escaped);
        // base64 makes every input the same size, so fill the largest paste with exactly those.
        int limit = defaultContentLimit();
        byte[] worst = new byte[limit];
        for (int i = 0; i < worst.length; i++) {
            worst[i] = (byte) (i % 32);
        }
        String longestCode = "Z".repeat(32);
        String encoded = codec.encode(new UploadJob(longestCode, ContentHash.sha256Hex(worst), worst));

        int size = encoded.getBytes(StandardCharsets.UTF_8).length;
        assertTrue(size <= UploadJobCodec.maxEncodedSize(limit), size + " > bound");
        assertTrue(
                UploadJobCodec.maxEncodedSize(limit) <= templateMaximumMessageSize(),
                "the template's MaximumMessageSize must hold the largest upload job");
    }

    /** pastebin.paste.max-content-bytes when nothing sets it. */
    private static int defaultContentLimit() {
        try (ApplicationContext context = ApplicationContext.run()) {
            return context.getBean(PasteProperties.class).maxContentBytes();
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "   ",
                "not json",
                "[]",
                "{}",
                "{\"version\":2,\"shortCode\":\"a\",\"contentSha256\":\"b\",\"content\":\"\"}",
                "{\"version\":1,\"contentSha256\":\"b\",\"content\":\"aGk=\"}",
                "{\"version\":1,\"shortCode\":\"abcdefgh\",\"contentSha256\":\"b\",\"content\":\"%%%\"}",
                "{\"version\":\"one\",\"shortCode\":\"abcdefgh\"}"
            })
    void malformedMessagesAreRejectedWithAReason(String body) {
        var e = assertThrows(MalformedUploadJobException.class, () -> codec.decode(body));
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
    }

    /** The upload queue's MaximumMessageSize as declared in infra/template.yaml, the single source of truth. */
    private static int templateMaximumMessageSize() throws IOException {
        Path template = Path.of("..", "infra", "template.yaml");
        var matcher = Pattern.compile("MaximumMessageSize:\\s*(\\d+)").matcher(Files.readString(template));
        assertTrue(matcher.find(), "infra/template.yaml declares the upload queue's MaximumMessageSize");
        return Integer.parseInt(matcher.group(1));
    }
}
