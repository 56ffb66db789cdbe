package dev.pastebin.privatebin;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The members of one JSON object read from its raw bytes with Jackson's streaming parser: each member's name and,
 * for an array or an object, the exact bytes it arrived as. PrivateBin's clients rebuild the AES-GCM additional data
 * from {@code adata} as the server answers it, so it is kept byte for byte, never put through a JSON model that could
 * rewrite a number ({@code 1e5}, {@code 100000.0}), an escape or the spacing. The object must be the whole document
 * and name no key twice (which one would the paste be?); nesting is bounded by Jackson's default constraints.
 */
final class JsonMembers {

    private static final JsonFactory STRICT_JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** Where a member's value starts and ends in the document (end exclusive), and what kind of value it is. */
    private record Span(JsonToken kind, int start, int end) {}

    private final byte[] json;
    private final Map<String, Span> members;

    private JsonMembers(byte[] json, Map<String, Span> members) {
        this.json = json;
        this.members = Collections.unmodifiableMap(members);
    }

    /** Empty when {@code json} is not exactly one JSON object without a key twice. */
    static Optional<JsonMembers> of(byte[] json) {
        try (JsonParser parser = STRICT_JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            Map<String, Span> members = new LinkedHashMap<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken kind = parser.nextToken();
                long start = parser.currentTokenLocation().getByteOffset();
                // an array or object ends at its closing bracket, which the parser has just consumed
                parser.skipChildren();
                long end = parser.currentLocation().getByteOffset();
                members.put(name, new Span(kind, (int) start, (int) end));
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
                return Optional.empty();
            }
            return Optional.of(new JsonMembers(json, members));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    Set<String> names() {
        return members.keySet();
    }

    /** The exact bytes of an array or object member; empty when there is no such member or it is a scalar. */
    Optional<byte[]> structure(String name) {
        Span span = members.get(name);
        if (span == null || (span.kind() != JsonToken.START_ARRAY && span.kind() != JsonToken.START_OBJECT)) {
            return Optional.empty();
        }
        return Optional.of(Arrays.copyOfRange(json, span.start(), span.end()));
    }
}
