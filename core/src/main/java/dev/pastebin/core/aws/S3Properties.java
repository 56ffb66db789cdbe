package dev.pastebin.core.aws;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * How the S3 client of the read, remove and sweeper functions behaves, bound from {@code pastebin.s3.*}
 * ({@code PASTEBIN_S3_CALL_TIMEOUT}, ...). The upload function tunes its own ({@code pastebin.upload.s3-*}).
 * The defaults fit the HTTP functions' 20 s timeout: a reveal makes two S3 calls, each over in at most 5 s,
 * and holds its row lock across the second only.
 *
 * @param maxAttempts    attempts the SDK makes per call (its standard retry strategy; 1 = no SDK retries)
 * @param attemptTimeout time limit of one HTTP attempt
 * @param callTimeout    time limit of a whole call, SDK retries included
 */
@ConfigurationProperties("pastebin.s3")
public record S3Properties(
        @Min(1) @Max(5) @Bindable(defaultValue = "2") int maxAttempts,
        @NotNull @Bindable(defaultValue = "3s") Duration attemptTimeout,
        @NotNull @Bindable(defaultValue = "5s") Duration callTimeout) {

    public S3Properties {
        if (attemptTimeout != null && callTimeout != null && attemptTimeout.compareTo(callTimeout) > 0) {
            throw new ConfigurationException("pastebin.s3.attempt-timeout (" + attemptTimeout
                    + ") must not exceed pastebin.s3.call-timeout (" + callTimeout + ")");
        }
    }
}
