package dev.pastebin.create;

import dev.pastebin.core.config.PasteProperties;
import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns a request body into the bytes of a paste, or rejects it with the error code that says why. Both forms
 * end as the same thing: non-empty, strictly valid UTF-8, at most {@code pastebin.paste.max-content-bytes}.
 * The content is never logged or quoted in an error.
 */
@Singleton
class PasteContentReader {

    /** The largest JSON escape (backslash, u, four hex digits) is 6 bytes for one content byte. */
    private static final int JSON_ESCAPE_FACTOR = 6;
    private static final int JSON_ENVELOPE_BYTES = 1024;

    private final int maxContentBytes;
    private final ObjectMapper objectMapper;

    PasteContentReader(PasteProperties properties, ObjectMapper objectMapper) {
        this.maxContentBytes = properties.maxContentBytes();
        this.objectMapper = objectMapper;
    }

    /** A raw {@code text/plain} body is the paste itself; its options come as query parameters. */
    PasteRequest fromText(@Nullable byte[] body, @Nullable String expiresIn, @Nullable String readOnce) {
        if (body == null || body.length == 0) {
            throw new ApiException(ApiErrorCode.EMPTY_CONTENT, "The paste is empty");
        }
        requireWithinLimit(body.length);
        decodeUtf8(body, "The paste is not valid UTF-8");
        return new PasteRequest(body, PasteOptions.fromQuery(expiresIn, readOnce));
    }

    /**
     * A JSON body {@code {"content": "…", "expiresIn": 3600, "readOnce": true}}; the paste is the UTF-8 encoding
     * of {@code content}, the other fields are optional.
     */
    PasteRequest fromJson(@Nullable byte[] body) {
        if (body == null || body.length == 0) {
            throw new ApiException(ApiErrorCode.EMPTY_CONTENT, "The request body is empty");
        }
        // rejects what cannot possibly hold an allowed paste before parsing it
        if (body.length > (long) maxContentBytes * JSON_ESCAPE_FACTOR + JSON_ENVELOPE_BYTES) {
            throw tooLarge();
        }
        String json = decodeUtf8(body, "The JSON body is not valid UTF-8");
        JsonNode document;
        try {
            document = objectMapper.readValue(json, JsonNode.class);
        } catch (IOException | RuntimeException e) {
            document = null;
        }
        if (document == null || !document.isObject()) {
            throw new ApiException(ApiErrorCode.INVALID_JSON, "The body is not a JSON object of the form {\"content\": \"...\"}");
        }
        // strictly a string: no coercion of numbers, arrays or objects into text
        JsonNode content = document.get("content");
        if (content == null || !content.isString()) {
            throw new ApiException(ApiErrorCode.MISSING_CONTENT, "The JSON body has no \"content\" string");
        }
        if (content.getStringValue().isEmpty()) {
            throw new ApiException(ApiErrorCode.EMPTY_CONTENT, "The paste is empty");
        }
        byte[] bytes = encodeUtf8(content.getStringValue());
        requireWithinLimit(bytes.length);
        return new PasteRequest(bytes, PasteOptions.fromJson(document.get("expiresIn"), document.get("readOnce")));
    }

    private void requireWithinLimit(int bytes) {
        if (bytes > maxContentBytes) {
            throw tooLarge();
        }
    }

    private ApiException tooLarge() {
        return new ApiException(ApiErrorCode.CONTENT_TOO_LARGE,
                "The paste is larger than the limit of " + maxContentBytes + " bytes");
    }

    /** Strict decoding: malformed or truncated sequences are reported, never replaced with U+FFFD. */
    private static String decodeUtf8(byte[] bytes, String error) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ApiException(ApiErrorCode.INVALID_UTF8, error);
        }
    }

    /** Strict encoding: an unpaired surrogate (a lone JSON backslash-u-d800 escape) is not text. */
    private static byte[] encodeUtf8(String text) {
        try {
            ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(text));
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
            return bytes;
        } catch (CharacterCodingException e) {
            throw new ApiException(ApiErrorCode.INVALID_UTF8, "\"content\" is not valid Unicode text (unpaired surrogate)");
        }
    }
}
