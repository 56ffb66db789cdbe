package dev.pastebin.core.config;

import dev.pastebin.core.job.UploadJobCodec;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

/**
 * The SQS queue that carries upload jobs. Bound from {@code pastebin.upload-queue.*}
 * ({@code PASTEBIN_UPLOAD_QUEUE_URL}, {@code PASTEBIN_UPLOAD_QUEUE_MAXIMUM_MESSAGE_SIZE}).
 *
 * @param url                the queue's URL
 * @param maximumMessageSize the queue's {@code MaximumMessageSize} in bytes, as the template sets it (told, not
 *                           asked with GetQueueAttributes: no extra IAM right and no network call while the
 *                           function initialises; infra's template test keeps the two equal)
 */
@ConfigurationProperties("pastebin.upload-queue")
public record UploadQueueProperties(
        @NotBlank @Bindable(defaultValue = "http://localhost:4566/queue/us-east-1/000000000000/pastebin-uploads")
        String url,

        @Min(1024)
        @Max(UploadJobCodec.SQS_MESSAGE_CEILING)
        @Bindable(defaultValue = "" + UploadJobCodec.SQS_MESSAGE_CEILING)
        int maximumMessageSize) {}
