package dev.pastebin.core.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotBlank;

/**
 * The upload queue's dead-letter queue: the upload worker hands it the jobs past the hold limit, and the sweeper
 * re-evaluates its messages. Bound from
 * {@code pastebin.upload-dlq.*} ({@code PASTEBIN_UPLOAD_DLQ_URL}, the name the local scripts export too).
 */
@ConfigurationProperties("pastebin.upload-dlq")
public record DeadLetterQueueProperties(
        @NotBlank @Bindable(defaultValue = "http://localhost:4566/queue/us-east-1/000000000000/pastebin-uploads-dlq")
        String url) {}
