package dev.pastebin.privatebin;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The PrivateBin protocol's JSON answers: success {@code {"status":0,"id","url",…}}, refusal
 * {@code {"status":1,"message"}} (HTTP 200, as PrivateBin answers; clients show the message), the read's paste with
 * {@code adata} written back byte for byte, and the JSON-LD context. None is ever cached: each describes a moment
 * (a burnt paste, a deletion token).
 */
final class PrivateBinAnswers {

    static final MediaType JSON = MediaType.APPLICATION_JSON_TYPE;
    static final MediaType JSON_LD = MediaType.of("application/ld+json");

    /** PrivateBin's words for a paste that is not there (unknown, expired, deleted, burnt). */
    static final String GENERIC_ERROR = "Document does not exist, has expired or has been deleted.";

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final String PASTE_JSONLD = "/privatebin/paste.jsonld";

    private PrivateBinAnswers() {}

    private interface Fields {
        void write(JsonGenerator json) throws IOException;
    }

    /** The create's success: the paste's id, its URL relative to the PrivateBin URL, and its deletion token. */
    static MutableHttpResponse<byte[]> created(String basePath, CreateEncryptedPasteService.Created created) {
        return ok(basePath, created.id(), json -> json.writeStringField("deletetoken", created.deleteToken()));
    }

    /** A delete's success. */
    static MutableHttpResponse<byte[]> deleted(String basePath, String id) {
        return ok(basePath, id, json -> {});
    }

    /** The paste as PrivateBin's read answers it; no comments: this system stores none. */
    static MutableHttpResponse<byte[]> paste(String basePath, EncryptedPaste paste) {
        return ok(basePath, paste.id(), json -> {
            json.writeFieldName("adata");
            json.writeRawValue(new String(paste.adata(), StandardCharsets.UTF_8));
            json.writeNumberField("v", 2);
            json.writeStringField("ct", paste.ct());
            json.writeObjectFieldStart("meta");
            if (paste.timeToLive() != null) {
                json.writeNumberField("time_to_live", paste.timeToLive());
            }
            json.writeEndObject();
            json.writeArrayFieldStart("comments");
            json.writeEndArray();
            json.writeNumberField("comment_count", 0);
            json.writeNumberField("comment_offset", 0);
            json.writeStringField("@context", "?jsonld=paste");
        });
    }

    /** A refusal in the protocol's shape, with the HTTP status this system gives it (200 for the protocol's own). */
    static MutableHttpResponse<byte[]> error(HttpStatus status, String message) {
        return answer(status, JSON, write(json -> {
            json.writeStartObject();
            json.writeNumberField("status", 1);
            json.writeStringField("message", message);
            json.writeEndObject();
        }));
    }

    /**
     * {@code ?jsonld=paste}: PrivateBin's context, whose {@code v} of 2 tells pbincli to send format v2 (without it,
     * pbincli falls back to the old format); other types are {@code {}}, as PrivateBin answers an unknown one.
     */
    static MutableHttpResponse<byte[]> jsonLd(String basePath, String type) {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        if (type.equals("paste")) {
            try (InputStream in = PrivateBinAnswers.class.getResourceAsStream(PASTE_JSONLD)) {
                if (in == null) {
                    throw new IllegalStateException(PASTE_JSONLD + " is missing from the artifact");
                }
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                        .replace("?jsonld=", basePath + "?jsonld=")
                        .getBytes(StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return answer(HttpStatus.OK, JSON_LD, body);
    }

    private static MutableHttpResponse<byte[]> ok(String basePath, String id, Fields more) {
        return answer(HttpStatus.OK, JSON, write(json -> {
            json.writeStartObject();
            json.writeNumberField("status", 0);
            json.writeStringField("id", id);
            json.writeStringField("url", basePath + "?" + id);
            more.write(json);
            json.writeEndObject();
        }));
    }

    private static MutableHttpResponse<byte[]> answer(HttpStatus status, MediaType type, byte[] body) {
        return HttpResponse.<byte[]>status(status)
                .contentType(type)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("X-Content-Type-Options", "nosniff")
                .body(body);
    }

    private static byte[] write(Fields fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            fields.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
