package dev.pastebin.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one JSON mapper of the local runtime: events are built as trees so their field names are explicit. */
public final class Json {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses a payload, or returns null when it is not JSON. */
    public static JsonNode parseOrNull(byte[] payload) {
        try {
            return payload.length == 0 ? null : MAPPER.readTree(payload);
        } catch (IOException e) {
            return null;
        }
    }
}
