package dev.pastebin.core.aws;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * How every function's SQS client behaves, bound from {@code pastebin.sqs.*} ({@code PASTEBIN_SQS_CALL_TIMEOUT}).
 *
 * @param callTimeout time limit of one SQS call, the SDK's standard retries included
 */
@ConfigurationProperties("pastebin.sqs")
public record SqsProperties(
        @NotNull @Bindable(defaultValue = "5s") Duration callTimeout) {}
