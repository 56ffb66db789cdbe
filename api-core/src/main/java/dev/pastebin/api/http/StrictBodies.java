package dev.pastebin.api.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict reading of raw request bodies ({@link RawBody}): what a lenient reader would quietly repair is refused
 * instead, the same way on every route that reads a body.
 */
public final class StrictBodies {

    /**
     * Refuses a key twice in one object (which value is meant?) and anything after the document. Nesting is bounded
     * by Jackson's default constraints.
     */
    private static final JsonFactory STRICT_JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private StrictBodies() {}

    /** Exactly one JSON value, no object with a key twice; a parse error is an answer too (false). */
    public static boolean isOneStrictDocument(String json) {
        try (JsonParser parser = STRICT_JSON.createParser(json)) {
            if (parser.nextToken() == null) {
                return false;
            }
            parser.skipChildren();
            return parser.nextToken() == null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Strict decoding: malformed or truncated sequences are 400 {@code INVALID_UTF8}, never U+FFFD. */
    public static String decodeUtf8(byte[] bytes, String error) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ApiException(ApiErrorCode.INVALID_UTF8, error);
        }
    }

    /**
     * One {@code application/x-www-form-urlencoded} name or value as bytes ({@code +} is a space); a truncated or
     * malformed percent-escape is 400 {@code BAD_REQUEST}.
     */
    public static byte[] percentDecode(String encoded) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '+') {
                out.write(' ');
            } else if (c == '%') {
                if (i + 2 >= encoded.length()) {
                    throw new ApiException(ApiErrorCode.BAD_REQUEST, "The form has a truncated percent-escape");
                }
                int high = Character.digit(encoded.charAt(i + 1), 16);
                int low = Character.digit(encoded.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    throw new ApiException(ApiErrorCode.BAD_REQUEST, "The form has an invalid percent-escape");
                }
                out.write(high << 4 | low);
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }
}
