package dev.pastebin.core.job;

import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * S3's event notifications as they reach the upload queue (docs/design.md, "Large files: straight to S3"): the bucket
 * notifies the queue of objects created under the staging prefix, next to the create function's upload jobs. Told
 * apart from a job by their shape: {@code {"Records": [{"eventSource": "aws:s3", "s3": {"bucket": {"name"},
 * "object": {"key"}}}]}}, or S3's {@code {"Event": "s3:TestEvent"}} when a notification is configured. Read by the
 * upload worker, which verifies the file, and by the sweeper, which judges a dead-lettered one by its file's paste.
 */
@Singleton
public class S3Notifications {

    /** One object S3 says was created: its bucket and key (decoded: S3 sends keys URL-encoded). */
    public record CreatedObject(String bucket, String key) {}

    /** A notification: S3's test event (nothing to do), or the objects created. */
    public record Notification(boolean testEvent, List<CreatedObject> objects) {}

    private final ObjectMapper objectMapper;

    public S3Notifications(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    /** The notification, or empty when the body is not one of S3's (an upload job, or anything else). */
    public Optional<Notification> parse(String body) {
        if (body == null || !(body.contains("\"Records\"") || body.contains("s3:TestEvent"))) {
            return Optional.empty();
        }
        JsonNode document;
        try {
            document = objectMapper.readValue(body, JsonNode.class);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        if (document == null || !document.isObject()) {
            return Optional.empty();
        }
        JsonNode event = document.get("Event");
        if (event != null && event.isString() && event.getStringValue().equals("s3:TestEvent")) {
            return Optional.of(new Notification(true, List.of()));
        }
        JsonNode records = document.get("Records");
        if (records == null || !records.isArray()) {
            return Optional.empty();
        }
        List<CreatedObject> objects = new ArrayList<>();
        for (JsonNode record : records.values()) {
            if (!"aws:s3".equals(text(record.get("eventSource")))) {
                return Optional.empty();
            }
            String name = text(record.get("eventName"));
            JsonNode s3 = record.get("s3");
            String bucket = s3 == null || s3.get("bucket") == null
                    ? null
                    : text(s3.get("bucket").get("name"));
            String key = s3 == null || s3.get("object") == null
                    ? null
                    : text(s3.get("object").get("key"));
            if (name == null || !name.startsWith("ObjectCreated:") || bucket == null || key == null) {
                continue;
            }
            objects.add(new CreatedObject(bucket, URLDecoder.decode(key, StandardCharsets.UTF_8)));
        }
        return Optional.of(new Notification(false, objects));
    }

    private static String text(JsonNode node) {
        return node != null && node.isString() ? node.getStringValue() : null;
    }
}
