package dev.pastebin.upload.hold;

import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.paste.Paste;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.Optional;

/**
 * What a delivery's first statement found ({@link DeliveryStarts}): the paste's row as it was, the breaker's, and,
 * when that statement already held the job, since when the paste is held.
 *
 * @param row       the paste's row before the statement; empty when the paste is gone
 * @param breaker   the breaker's row; null when the breaker is off or has no row yet (its first use creates it)
 * @param heldSince set when the statement held the job (its first hold and message noted on the row): the paste's
 *                  first hold
 */
public record DeliveryStart(
        Optional<Paste> row,
        @Nullable BreakerSnapshot breaker,
        @Nullable Instant heldSince) {

    /** The row alone: the breaker is off, so nothing else is read. */
    public static DeliveryStart rowOnly(Optional<Paste> row) {
        return new DeliveryStart(row, null, null);
    }

    public boolean held() {
        return heldSince != null;
    }
}
