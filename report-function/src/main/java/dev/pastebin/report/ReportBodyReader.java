package dev.pastebin.report;

import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.api.http.StrictBodies;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a report's body: JSON {@code {"reason": "spam", "text": "…", "contact": "…"}} or the same fields as an
 * HTML form posts them ({@code application/x-www-form-urlencoded}). Every refusal is a 4xx that names what is wrong:
 * a body over {@code pastebin.report.max-body-bytes} (413, before it is parsed), another Content-Type (415), a
 * malformed document (400), a reason not in {@link ReportReason}, or text or a contact that is too long or holds
 * control characters ({@link ApiErrorCode#INVALID_REPORT}).
 */
@Singleton
class ReportBodyReader {

    static final String REASON = "reason";
    static final String TEXT = "text";
    static final String CONTACT = "contact";
    private static final Set<String> FIELDS = Set.of(REASON, TEXT, CONTACT);

    private final ReportProperties limits;
    private final ObjectMapper objectMapper;

    ReportBodyReader(ReportProperties limits, ObjectMapper objectMapper) {
        this.limits = limits;
        this.objectMapper = objectMapper;
    }

    ReportForm read(byte[] body, @Nullable MediaType type) {
        if (type == null) {
            throw unsupportedMediaType();
        }
        String charset = type.getParameters().get("charset").orElse(null);
        if (charset != null && !charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
            throw new ApiException(ApiErrorCode.UNSUPPORTED_MEDIA_TYPE, "Only charset=utf-8 is accepted");
        }
        if (body.length > limits.maxBodyBytes()) {
            throw new ApiException(
                    ApiErrorCode.CONTENT_TOO_LARGE, "A report's body is at most " + limits.maxBodyBytes() + " bytes");
        }
        Map<String, String> fields = switch (type.getName().toLowerCase(Locale.ROOT)) {
            case MediaType.APPLICATION_JSON -> jsonFields(body);
            case MediaType.APPLICATION_FORM_URLENCODED -> formFields(body);
            default -> throw unsupportedMediaType();
        };
        return checked(fields);
    }

    private ReportForm checked(Map<String, String> fields) {
        String reasonName = fields.get(REASON);
        if (reasonName == null || reasonName.isBlank()) {
            throw invalid("A report needs a \"reason\", one of " + ReportReason.wireNames());
        }
        ReportReason reason = ReportReason.of(reasonName.strip())
                .orElseThrow(() -> invalid("\"reason\" must be one of " + ReportReason.wireNames()));
        return new ReportForm(
                reason,
                optionalText(fields.get(TEXT), TEXT, limits.maxTextLength(), true),
                optionalText(fields.get(CONTACT), CONTACT, limits.maxContactLength(), false));
    }

    /** Blank is absent; otherwise at most {@code max} characters (code points) with no control character but line breaks and tabs in free text. */
    @Nullable
    private static String optionalText(@Nullable String value, String name, int max, boolean multiline) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.strip();
        if (text.codePointCount(0, text.length()) > max) {
            throw invalid("\"" + name + "\" is longer than " + max + " characters");
        }
        boolean control = text.codePoints()
                .anyMatch(c -> Character.isISOControl(c) && !(multiline && (c == '\n' || c == '\r' || c == '\t')));
        if (control) {
            throw invalid("\"" + name + "\" holds control characters");
        }
        return text;
    }

    private Map<String, String> jsonFields(byte[] body) {
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
                    "The body is not one JSON object of the form {\"reason\": \"spam\", \"text\": \"...\", "
                            + "\"contact\": \"...\"} (no key twice, nothing after it)");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String name : FIELDS) {
            JsonNode field = document.get(name);
            if (field == null || field.isNull()) {
                continue;
            }
            // strictly a string: no coercion of numbers, arrays or objects into text
            if (!field.isString()) {
                throw invalid("\"" + name + "\" must be a string");
            }
            fields.put(name, field.getStringValue());
        }
        return fields;
    }

    /** The first value of each known field; percent-escapes decoded strictly (a malformed one is a 400). */
    private static Map<String, String> formFields(byte[] body) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : new String(body, StandardCharsets.ISO_8859_1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = StrictBodies.decodeUtf8(
                    StrictBodies.percentDecode(equals < 0 ? pair : pair.substring(0, equals)),
                    "The form is not valid UTF-8");
            if (FIELDS.contains(name) && !fields.containsKey(name)) {
                fields.put(
                        name,
                        equals < 0
                                ? ""
                                : StrictBodies.decodeUtf8(
                                        StrictBodies.percentDecode(pair.substring(equals + 1)),
                                        "The form is not valid UTF-8"));
            }
        }
        return fields;
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiErrorCode.INVALID_REPORT, message);
    }

    private static ApiException unsupportedMediaType() {
        return new ApiException(
                ApiErrorCode.UNSUPPORTED_MEDIA_TYPE,
                "Send the report as application/json or application/x-www-form-urlencoded");
    }
}
