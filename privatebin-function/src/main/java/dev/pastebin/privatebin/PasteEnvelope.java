package dev.pastebin.privatebin;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.micronaut.json.JsonMapper;
import io.micronaut.json.tree.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What this system stores for a PrivateBin paste, as the paste's content: its JSON envelope
 * {@code {"v":2,"adata":<exactly the bytes sent>,"ct":"…","meta":{"expire":"…"}}}. It goes through the create
 * path like any paste (row, upload job, the upload worker puts it in S3), so states, holds, expiry, the sweeper
 * and takedowns apply unchanged. Everything in it is what the client sent in the clear anyway: ciphertext, cipher
 * parameters, formatter and flags, never the key.
 */
final class PasteEnvelope {

    private static final JsonFactory JSON = new JsonFactory();

    private PasteEnvelope() {}

    /** The envelope of a paste as stored; what a read answers from it. */
    record Stored(byte[] adata, String ct) {}

    static byte[] of(EncryptedPasteRequest paste) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(paste.ct().length() + FormatV2.ENVELOPE_RESERVE_BYTES);
        try (JsonGenerator envelope = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            envelope.writeStartObject();
            envelope.writeNumberField("v", 2);
            envelope.writeFieldName("adata");
            envelope.writeRawValue(new String(paste.adata(), StandardCharsets.UTF_8));
            envelope.writeStringField("ct", paste.ct());
            envelope.writeObjectFieldStart("meta");
            envelope.writeStringField("expire", paste.expiry().value());
            envelope.writeEndObject();
            envelope.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * The envelope in a stored paste's content; empty when the content is not one (a paste created through another
     * route, which this protocol does not show).
     */
    static Optional<Stored> read(byte[] content, JsonMapper json) {
        Optional<JsonMembers> members = JsonMembers.of(content);
        if (members.isEmpty()) {
            return Optional.empty();
        }
        Optional<byte[]> adata = members.get().structure("adata");
        JsonNode ct;
        JsonNode version;
        try {
            JsonNode document = json.readValue(content, JsonNode.class);
            ct = document.get("ct");
            version = document.get("v");
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        if (adata.isEmpty() || ct == null || !ct.isString() || version == null || !version.isNumber()) {
            return Optional.empty();
        }
        return Optional.of(new Stored(adata.get(), ct.getStringValue()));
    }
}
