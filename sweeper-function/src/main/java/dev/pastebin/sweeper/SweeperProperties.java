package dev.pastebin.sweeper;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.time.Duration;

/**
 * What the sweeper removes and how it paces itself. Bound from {@code pastebin.sweeper.*}, e.g.
 * {@code PASTEBIN_SWEEPER_FAILED_RETENTION=48h}.
 *
 * @param failedRetention how long a FAILED row is kept (by its creation time) before it is deleted
 * @param stuckAfter      an IN_PROGRESS row older than this is marked FAILED with reason {@code stuck}; it must
 *                        exceed the whole retry window (about 31 s) plus the queue's redelivery slack
 * @param batchSize       rows per statement; one S3 DeleteObjects call takes at most 1000 keys
 * @param stopMargin      no new batch starts when less than this is left before the Lambda deadline
 */
@ConfigurationProperties("pastebin.sweeper")
public record SweeperProperties(
        @NotNull @Bindable(defaultValue = "24h") Duration failedRetention,
        @NotNull @Bindable(defaultValue = "1h") Duration stuckAfter,
        @Min(1) @Max(1000) @Bindable(defaultValue = "500") int batchSize,
        @NotNull @Bindable(defaultValue = "15s") Duration stopMargin) {
}
