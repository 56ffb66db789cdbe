package dev.pastebin.core.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotBlank;

/** The SQS queue that carries upload jobs. Bound from {@code pastebin.upload-queue.*} ({@code PASTEBIN_UPLOAD_QUEUE_URL}). */
@ConfigurationProperties("pastebin.upload-queue")
public record UploadQueueProperties(
        @NotBlank @Bindable(defaultValue = "http://localhost:4566/queue/us-east-1/000000000000/pastebin-uploads") String url) {
}
