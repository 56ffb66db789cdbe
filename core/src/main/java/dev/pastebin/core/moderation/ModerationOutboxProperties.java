package dev.pastebin.core.moderation;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotBlank;

/**
 * The moderation outbox queue, bound from {@code pastebin.moderation-outbox.*} ({@code PASTEBIN_MODERATION_OUTBOX_URL},
 * which the template sets for the report and moderation functions).
 *
 * @param url the queue's URL
 */
@ConfigurationProperties("pastebin.moderation-outbox")
public record ModerationOutboxProperties(
        @NotBlank
        @Bindable(defaultValue = "http://localhost:4566/queue/us-east-1/000000000000/pastebin-moderation-outbox")
        String url) {}
