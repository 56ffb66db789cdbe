package dev.pastebin.report;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotBlank;

/**
 * The moderation outbox, the SQS queue the moderation function consumes: a report's notification request is a
 * message there, and that function publishes it to the abuse topic (docs/design.md, "Abuse reports"). Bound from
 * {@code pastebin.moderation-outbox.*} ({@code PASTEBIN_MODERATION_OUTBOX_URL}).
 *
 * @param url the queue's URL
 */
@ConfigurationProperties("pastebin.moderation-outbox")
public record ModerationOutboxProperties(
        @NotBlank
        @Bindable(defaultValue = "http://localhost:4566/queue/us-east-1/000000000000/pastebin-moderation-outbox")
        String url) {}
