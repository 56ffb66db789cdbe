package dev.pastebin.upload;

import dev.pastebin.core.delivery.S3Attempt;
import io.micronaut.core.annotation.Nullable;

/** How storing one upload job ended when nothing failed this paste. */
sealed interface StoreResult {

    /**
     * The content is in S3 and the row moved to PROCESSED.
     *
     * @param s3Attempt    which real S3 attempt succeeded
     * @param sinceCreated from the row's creation to PROCESSED
     */
    record Stored(S3Attempt s3Attempt, java.time.Duration sinceCreated) implements StoreResult {}

    /**
     * The row was already terminal before this delivery started: a redelivery or a concurrent copy won. A
     * FAILED row's object, if a delivery stored one, has been removed ({@code detail} says so).
     */
    record AlreadyTerminal(String detail) implements StoreResult {}

    /**
     * The row became terminal while this delivery was uploading: PROCESSED by a concurrent delivery (the same
     * bytes, kept), or FAILED (the object this delivery stored has been removed).
     */
    record LostRace(String detail) implements StoreResult {}

    /**
     * The paste was removed (deleted, revealed, expired or swept) before or during this delivery: there is no
     * row, and the object a delivery may have stored for it has been removed.
     */
    record Removed(String detail) implements StoreResult {}

    /** The object of a removed or FAILED paste could not be removed: the job must come back until it is. */
    record RemovalFailed(String detail, RuntimeException error) implements StoreResult {}

    /**
     * S3 was not usable for anyone: the breaker is open ({@code cause} a
     * {@link dev.pastebin.core.breaker.CircuitOpenException}) or S3 just said it is misconfigured for everyone
     * (and opened it). No S3 attempt was spent.
     *
     * @param heldSince       when the breaker first held this paste's upload
     * @param firstHoldToNote {@code heldSince}, when this is the first hold and it is not noted yet; else null
     * @param noted           the delivery's first statement held it: first hold and message already noted
     */
    record Held(
            RuntimeException cause,
            java.time.Instant heldSince,
            java.time.@Nullable Instant firstHoldToNote,
            boolean noted)
            implements StoreResult {}
}
