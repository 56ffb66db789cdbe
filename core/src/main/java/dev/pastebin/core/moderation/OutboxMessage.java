package dev.pastebin.core.moderation;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pastebin.core.storage.ContentLocation;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.Collection;
import java.util.List;

/**
 * One message of the moderation outbox queue, which the moderation outbox function consumes outside the VPC:
 * {@code {"kind":"invalidate","paths":[..],"reference":"takedown:<id>"}} (a takedown's edge paths),
 * {@code {"kind":"delete-objects","objects":["s3://bucket/pastes/<code>",..],"reference":"takedown:<id>"}} (a
 * taken-down paste's objects, when S3 refused the takedown's own delete) or
 * {@code {"kind":"notify","subject":..,"message":..,"reference":"report:<code>"}} (an operator notification).
 * The reference names what asked for it in the logs, and is CloudFront's caller reference for an invalidation.
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OutboxMessage(
        @Nullable String kind,
        @Nullable List<String> paths,
        @Nullable List<String> objects,
        @Nullable String reference,
        @Nullable String subject,
        @Nullable String message) {

    public static final String INVALIDATE = "invalidate";
    public static final String DELETE_OBJECTS = "delete-objects";
    public static final String NOTIFY = "notify";

    public static OutboxMessage invalidate(List<String> paths, String reference) {
        return new OutboxMessage(INVALIDATE, List.copyOf(paths), null, reference, null, null);
    }

    /** The objects as {@code s3://bucket/key} ({@link ContentLocation#uri()}). */
    public static OutboxMessage deleteObjects(Collection<ContentLocation> objects, String reference) {
        return new OutboxMessage(
                DELETE_OBJECTS, null, objects.stream().map(ContentLocation::uri).toList(), reference, null, null);
    }

    public static OutboxMessage notify(String subject, String message, String reference) {
        return new OutboxMessage(NOTIFY, null, null, reference, subject, message);
    }
}
