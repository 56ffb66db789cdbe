package dev.pastebin.moderation;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/**
 * One message of the moderation outbox queue: {@code {"kind":"invalidate","paths":[..],"reference":"takedown:<id>"}}
 * or {@code {"kind":"notify","subject":..,"message":..,"reference":"report:<code>"}}.
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OutboxMessage(
        @Nullable String kind,
        @Nullable List<String> paths,
        @Nullable String reference,
        @Nullable String subject,
        @Nullable String message) {

    static final String INVALIDATE = "invalidate";
    static final String NOTIFY = "notify";

    static OutboxMessage invalidate(List<String> paths, String reference) {
        return new OutboxMessage(INVALIDATE, paths, reference, null, null);
    }
}
