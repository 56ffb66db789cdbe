package dev.pastebin.upload;

import dev.pastebin.core.delivery.S3Attempt;
import dev.pastebin.core.failure.Failure;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;

/**
 * How one delivery of an upload job ended, as {@link DeliveryDecisions} needs it: failures classified, the S3
 * attempt they count, and what the breaker said. {@link DeliveryOutcomes} builds it from a {@link StoreResult} or a
 * failure.
 */
sealed interface Ending {

    /** Stored and the row moved to PROCESSED on {@code attempt}, {@code sinceCreated} after the row was created. */
    record Stored(S3Attempt attempt, Duration sinceCreated) implements Ending {}

    /** The row was, or became, terminal: a redelivery or a concurrent copy won. */
    record Duplicate(String detail) implements Ending {}

    /** The paste was removed (no row); its object, if a delivery stored one, is gone. */
    record Removed(String detail) implements Ending {}

    /** The object of a removed or FAILED paste could not be removed. */
    record RemovalFailed(String detail, Failure failure) implements Ending {}

    /**
     * S3 was not usable for anyone (the breaker open, or S3 misconfigured for everyone): no S3 attempt was made.
     *
     * @param heldSince       the paste's first hold
     * @param untilProbe      the breaker's view: how long until its next probe (zero when it is due or in flight)
     * @param firstHoldToNote {@code heldSince}, when this is the first hold and it is not noted yet; else null
     * @param noted           the hold is already noted on the row (first hold and message): only the wait is left
     * @param heldBacklog     the jobs the breaker holds fleet-wide, as this environment last counted them
     */
    record Held(
            Failure failure,
            Instant heldSince,
            Duration untilProbe,
            @Nullable Instant firstHoldToNote,
            boolean noted,
            long heldBacklog)
            implements Ending {}

    /**
     * The paste's S3 {@code attempt} failed.
     *
     * @param firstHeldAt when its wait on the hold schedule began (the row's {@code first_held_at}), null if never
     */
    record S3AttemptFailed(
            Failure failure, S3Attempt attempt, @Nullable Instant firstHeldAt) implements Ending {}

    /** Failed before any S3 attempt: the database, the content's hash, an unexpected error. */
    record Failed(Failure failure) implements Ending {}

    /** Not an upload job this worker can process. */
    record Poison(String reason) implements Ending {}

    /** A decision to mark the paste FAILED ({@code outcome}) could not be carried out: the database {@code failure}. */
    record NotMarkedFailed(Outcome outcome, Failure failure) implements Ending {}
}
