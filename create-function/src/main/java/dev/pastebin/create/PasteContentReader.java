package dev.pastebin.create;

import dev.pastebin.api.create.PasteOptions;
import dev.pastebin.api.create.PasteRequest;
import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.api.http.StrictBodies;
import dev.pastebin.core.paste.InvalidFileNameException;
import dev.pastebin.core.paste.InvalidLanguageException;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.core.paste.PasteRefusal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * Turns a request body into the bytes of a paste, or rejects it with the error code that says why. Both forms
 * end as the same thing: non-empty, strictly valid UTF-8, at most {@code pastebin.paste.max-content-bytes}.
 * The content is never logged or quoted in an error. Options and labels the pastebin does not take are refused
 * as the domain refuses ({@link PasteOptions}, {@link PasteMetadata}: a {@link PasteRefusal}).
 */
@Singleton
class PasteContentReader {

    /** The largest JSON escape (backslash, u, four hex digits) is 6 bytes for one content byte. */
    private static final int JSON_ESCAPE_FACTOR = 6;

    private static final int JSON_ENVELOPE_BYTES = 1024;
    /** A percent-escape is 3 bytes for one content byte; a multipart part carries the bytes as they are. */
    private static final int PERCENT_ESCAPE_FACTOR = 3;
    /** Boundaries, part headers (a file name) and the short option fields around a form's content. */
    private static final int FORM_ENVELOPE_BYTES = 16 * 1024;

    static final String FILE_PART = "file";
    static final String ONESHOT_PART = "oneshot";
    static final String CONTENT_FIELD = "content";
    static final String EXPIRES_FIELD = "expires";
    static final String HASTE_DATA_FIELD = "data";

    private final int maxContentBytes;
    private final ObjectMapper objectMapper;

    PasteContentReader(PasteProperties properties, ObjectMapper objectMapper) {
        this.maxContentBytes = properties.maxContentBytes();
        this.objectMapper = objectMapper;
    }

    /** A raw {@code text/plain} body is the paste itself; its options and labels come as query parameters. */
    PasteRequest fromText(
            @Nullable byte[] body,
            @Nullable String expiresIn,
            @Nullable String readOnce,
            @Nullable String language,
            @Nullable String fileName) {
        requireText(body);
        return new PasteRequest(
                body, PasteOptions.fromQuery(expiresIn, readOnce), PasteMetadata.of(language, fileName));
    }

    /**
     * A form as command-line clients post it (docs/using.md, "Use it from your terminal"): the paste is the multipart
     * {@code file} part ({@code curl -F file=@notes.txt}, 0x0.st), or its {@code oneshot} part for a paste read
     * once (rustypaste), or the urlencoded {@code content} field (pastebinit, HTML forms). Expiry from
     * rustypaste's {@code expire} header or 0x0.st's {@code expires} field. The uploaded file's name labels the
     * paste, and its extension the language.
     */
    PasteRequest fromForm(ClientForm form, boolean multipart, @Nullable String expireHeader) {
        byte[] oneshot = multipart ? form.field(ONESHOT_PART).orElse(null) : null;
        byte[] content = oneshot != null
                ? oneshot
                : form.field(multipart ? FILE_PART : CONTENT_FIELD)
                        .orElseThrow(() -> new ApiException(
                                ApiErrorCode.MISSING_CONTENT,
                                multipart
                                        ? "The multipart body has no \"file\" part"
                                        : "The form has no \"content\" field"));
        requireText(content);
        String uploadedName = multipart
                ? form.fileName(oneshot != null ? ONESHOT_PART : FILE_PART).orElse(null)
                : null;
        return new PasteRequest(
                content,
                PasteOptions.fromClientConventions(
                        expireHeader, form.text(EXPIRES_FIELD).orElse(null), oneshot != null),
                PasteMetadata.ofUploadedFile(uploadedName));
    }

    /**
     * Rejects a form body that cannot possibly hold an allowed paste before parsing it, as {@link #fromJson} does:
     * its content is at most the limit, percent-encoded (urlencoded) or as it is (multipart), plus the envelope.
     */
    void requireFormWithinLimit(byte[] body, boolean multipart) {
        long largest = (long) maxContentBytes * (multipart ? 1 : PERCENT_ESCAPE_FACTOR) + FORM_ENVELOPE_BYTES;
        if (body.length > largest) {
            throw tooLarge();
        }
    }

    /**
     * A haste client's {@code POST /documents}: the raw body is the paste, whatever its Content-Type (clients send
     * none, text/plain, or curl's default application/x-www-form-urlencoded), except a multipart form, whose
     * {@code data} field is the paste, as haste-server reads it. Haste has no options.
     */
    PasteRequest fromHaste(@Nullable byte[] body, @Nullable MediaType type) {
        byte[] content = body;
        if (type != null && type.getName().equalsIgnoreCase(MediaType.MULTIPART_FORM_DATA)) {
            byte[] form = body == null ? new byte[0] : body;
            requireFormWithinLimit(form, true);
            content = ClientForm.multipart(form, type)
                    .field(HASTE_DATA_FIELD)
                    .orElseThrow(() ->
                            new ApiException(ApiErrorCode.MISSING_CONTENT, "The multipart body has no \"data\" field"));
        }
        requireText(content);
        return new PasteRequest(content, PasteOptions.NONE, PasteMetadata.NONE);
    }

    /** Pastes are UTF-8; a body declared in another charset would be re-encoded on the way in. */
    static void requireUtf8Charset(@Nullable MediaType type) {
        String charset =
                type == null ? null : type.getParameters().get("charset").orElse(null);
        if (charset != null && !charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
            throw new ApiException(ApiErrorCode.UNSUPPORTED_MEDIA_TYPE, "Only charset=utf-8 is accepted");
        }
    }

    private void requireText(@Nullable byte[] content) {
        if (content == null || content.length == 0) {
            throw new ApiException(ApiErrorCode.EMPTY_CONTENT, "The paste is empty");
        }
        requireWithinLimit(content.length);
        StrictBodies.decodeUtf8(content, "The paste is not valid UTF-8");
    }

    /**
     * A JSON body {@code {"content": "…", "expiresIn": 3600, "readOnce": true, "language": "java",
     * "fileName": "Main.java"}}; the paste is the UTF-8 encoding of {@code content}, the other fields are optional.
     */
    PasteRequest fromJson(@Nullable byte[] body) {
        return fromJsonDocument(jsonDocument(body));
    }

    /**
     * The JSON body as one strict JSON object: a small create's ({@link #fromJsonDocument}) or, with {@code files},
     * a large one's ({@link LargePasteReader}).
     */
    JsonNode jsonDocument(@Nullable byte[] body) {
        if (body == null || body.length == 0) {
            throw new ApiException(ApiErrorCode.EMPTY_CONTENT, "The request body is empty");
        }
        // rejects what cannot possibly hold an allowed paste before parsing it
        if (body.length > (long) maxContentBytes * JSON_ESCAPE_FACTOR + JSON_ENVELOPE_BYTES) {
            throw tooLarge();
        }
        String json = StrictBodies.decodeUtf8(body, "The JSON body is not valid UTF-8");
        JsonNode document;
        try {
            document = StrictBodies.isOneStrictDocument(json) ? objectMapper.readValue(json, JsonNode.class) : null;
        } catch (IOException | RuntimeException e) {
            document = null;
        }
        if (document == null || !document.isObject()) {
            throw new ApiException(
                    ApiErrorCode.INVALID_JSON,
                    "The body is not one JSON object of the form "
                            + "{\"content\": \"...\"} (no key twice, nothing after it)");
        }
        return document;
    }

    /** A small create's JSON object (see {@link #fromJson}). */
    PasteRequest fromJsonDocument(JsonNode document) {
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
        return new PasteRequest(
                bytes,
                PasteOptions.fromJson(document.get("expiresIn"), document.get("readOnce")),
                PasteMetadata.of(
                        optionalString(document.get("language"), "language", InvalidLanguageException::new),
                        optionalString(document.get("fileName"), "fileName", InvalidFileNameException::new)));
    }

    /**
     * A label field: absent or null, or strictly a string (no coercion of numbers or arrays into text); anything
     * else is refused as an invalid label is.
     */
    @Nullable
    private static String optionalString(
            @Nullable JsonNode field, String name, Function<String, ? extends PasteRefusal> refusal) {
        if (field == null || field.isNull()) {
            return null;
        }
        if (!field.isString()) {
            throw refusal.apply(name + " must be a string");
        }
        return field.getStringValue();
    }

    private void requireWithinLimit(int bytes) {
        if (bytes > maxContentBytes) {
            throw tooLarge();
        }
    }

    private ApiException tooLarge() {
        return new ApiException(
                ApiErrorCode.CONTENT_TOO_LARGE, "The paste is larger than the limit of " + maxContentBytes + " bytes");
    }

    /** Strict encoding: an unpaired surrogate (a lone JSON backslash-u-d800 escape) is not text. */
    private static byte[] encodeUtf8(String text) {
        try {
            ByteBuffer encoded = StandardCharsets.UTF_8
                    .newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(text));
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
            return bytes;
        } catch (CharacterCodingException e) {
            throw new ApiException(
                    ApiErrorCode.INVALID_UTF8, "\"content\" is not valid Unicode text (unpaired surrogate)");
        }
    }
}
