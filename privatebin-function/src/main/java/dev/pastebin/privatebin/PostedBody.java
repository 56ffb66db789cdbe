package dev.pastebin.privatebin;

import dev.pastebin.api.http.ApiException;
import dev.pastebin.api.http.StrictBodies;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.JsonMapper;
import io.micronaut.json.tree.JsonNode;
import java.io.IOException;
import java.util.Optional;

/**
 * A POST to the PrivateBin URL, read as PrivateBin reads it: JSON whatever the Content-Type says (pbincli sends
 * none, the Go client {@code application/x-www-form-urlencoded}, a browser {@code application/json}). Both views
 * of the one object: its members' raw bytes ({@link JsonMembers}, for {@code adata}) and a tree to validate.
 *
 * @param members  the object's members and their raw bytes
 * @param document the same object as a tree, only ever read, never written back
 */
record PostedBody(JsonMembers members, JsonNode document) {

    /** What a delete sends: {@code {"pasteid": …, "deletetoken": …}}. */
    record Deletion(String pasteId, String deleteToken) {}

    /** Empty when the body is not one JSON object in valid UTF-8 with no key twice. */
    static Optional<PostedBody> parse(byte[] body, JsonMapper json) {
        if (!isUtf8(body)) {
            return Optional.empty();
        }
        Optional<JsonMembers> members = JsonMembers.of(body);
        if (members.isEmpty()) {
            return Optional.empty();
        }
        try {
            JsonNode document = json.readValue(body, JsonNode.class);
            return document != null && document.isObject()
                    ? Optional.of(new PostedBody(members.get(), document))
                    : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A body with a non-empty {@code pasteid} and {@code deletetoken} is a delete, whatever else it holds, as
     * PrivateBin decides it.
     */
    Optional<Deletion> deletion() {
        String pasteId = nonEmptyString("pasteid");
        String deleteToken = nonEmptyString("deletetoken");
        return pasteId == null || deleteToken == null
                ? Optional.empty()
                : Optional.of(new Deletion(pasteId, deleteToken));
    }

    @Nullable
    private String nonEmptyString(String name) {
        JsonNode value = document.get(name);
        return value != null && value.isString() && !value.getStringValue().isEmpty() ? value.getStringValue() : null;
    }

    /** Strict, as every body is read (a malformed or truncated sequence is not text): here it is only not a paste. */
    private static boolean isUtf8(byte[] bytes) {
        try {
            StrictBodies.decodeUtf8(bytes, "The body is not valid UTF-8");
            return true;
        } catch (ApiException e) {
            return false;
        }
    }
}
