package dev.pastebin.core.job;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.ObjectMapper;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.Base64;

/**
 * The one codec for upload-job messages, used by the create function (encode) and the upload worker
 * (decode). Wire form, version 1:
 *
 * <pre>{"version":1,"shortCode":"…","contentSha256":"…","content":"&lt;base64 of the UTF-8 bytes&gt;"}</pre>
 *
 * The content is base64, not a JSON string: JSON escaping can turn one control character into six bytes
 * ({@code \u0000}), while base64 is always 4/3 of the input, so the largest paste has a fixed, provable
 * message size ({@link #maxEncodedSize}).
 */
@Singleton
public class UploadJobCodec {

    public static final int VERSION = 1;

    /**
     * Bytes of the envelope around the base64 content, for the longest short code (32) and hash (64): 156 of
     * them in version 1, rounded up.
     */
    static final int ENVELOPE_BOUND = 256;

    /** SQS's ceiling for one message, the most any queue's {@code MaximumMessageSize} can be (1 MiB since 2025). */
    public static final int SQS_MESSAGE_CEILING = 1_048_576;

    /**
     * The largest content whose job fits {@link #SQS_MESSAGE_CEILING}: base64 turns each 3 bytes into 4, after the
     * envelope. 786,240 bytes; the default and the cap of {@code pastebin.paste.max-content-bytes}.
     */
    public static final int LARGEST_CONTENT_BYTES = 3 * ((SQS_MESSAGE_CEILING - ENVELOPE_BOUND) / 4);

    private final ObjectMapper objectMapper;

    public UploadJobCodec(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    public String encode(UploadJob job) {
        var message = new Message(
                VERSION,
                job.shortCode(),
                job.contentSha256(),
                Base64.getEncoder().encodeToString(job.content()));
        try {
            return objectMapper.writeValueAsString(message);
        } catch (IOException e) {
            throw new IllegalStateException("an upload job always serializes", e);
        }
    }

    public UploadJob decode(String body) throws MalformedUploadJobException {
        if (body == null || body.isBlank()) {
            throw new MalformedUploadJobException("empty message body");
        }
        Message message;
        try {
            message = objectMapper.readValue(body, Message.class);
        } catch (IOException | RuntimeException e) {
            throw new MalformedUploadJobException(
                    "message body is not an upload job: " + e.getClass().getSimpleName(), e);
        }
        if (message == null || message.version() == null) {
            throw new MalformedUploadJobException("message has no version");
        }
        if (message.version() != VERSION) {
            throw new MalformedUploadJobException("unsupported upload job version " + message.version());
        }
        if (isBlank(message.shortCode()) || isBlank(message.contentSha256()) || message.content() == null) {
            throw new MalformedUploadJobException("upload job lacks shortCode, contentSha256 or content");
        }
        try {
            return new UploadJob(
                    message.shortCode(),
                    message.contentSha256(),
                    Base64.getDecoder().decode(message.content()));
        } catch (IllegalArgumentException e) {
            throw new MalformedUploadJobException("content is not valid base64", e);
        }
    }

    /** An upper bound of the encoded message size, in bytes, for content of {@code contentBytes} bytes. */
    public static int maxEncodedSize(int contentBytes) {
        int base64 = 4 * ((contentBytes + 2) / 3);
        return base64 + ENVELOPE_BOUND;
    }

    private static boolean isBlank(@Nullable String value) {
        return value == null || value.isBlank();
    }

    @Serdeable
    record Message(
            @Nullable Integer version,
            @Nullable String shortCode,
            @Nullable String contentSha256,
            @Nullable String content) {}
}
