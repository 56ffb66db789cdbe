package dev.pastebin.upload;

import dev.pastebin.core.delivery.S3Attempt;
import dev.pastebin.core.failure.Failure;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;

/**
 * What is done with one delivery ({@link DeliveryDecisions}), before anything is done ({@link DeliveryEffects}):
 * acknowledge it, fail the paste, or say when the job is delivered again.
 */
sealed interface Decision {

    /** The outcome the delivery line reports when the decision is carried out as decided. */
    Outcome outcome();

    /** Stored: acknowledged; its S3 attempt and time to success are measured. */
    record Succeeded(S3Attempt attempt, Duration sinceCreated) implements Decision {
        @Override
        public Outcome outcome() {
            return Outcome.SUCCESS;
        }
    }

    /** Nothing left to do ({@link Outcome#DUPLICATE}, {@link Outcome#REMOVED}): acknowledged. */
    record Acknowledge(Outcome outcome, String detail) implements Decision {}

    /**
     * A permanent failure, or a transient one given up ({@link Outcome#GAVE_UP}): the row moves to FAILED with
     * {@link #reason()}, and the message is acknowledged.
     */
    record MarkFailed(
            Outcome outcome, Failure failure, @Nullable String detail) implements Decision {

        /** {@code <outcome>: <error class>: [<detail>: ]<message>}. */
        String reason() {
            return outcome.label() + ": " + failure.errorClass() + ": "
                    + (detail == null ? failure.message() : detail + ": " + failure.message());
        }
    }

    /**
     * Back after {@code seconds}, the backoff of the fast schedule ({@link Outcome#TRANSIENT}, or
     * {@link Outcome#POISON} on its way to the redrive): the message's visibility is changed and it is reported.
     */
    record Backoff(Outcome outcome, @Nullable Failure failure, int seconds, String detail) implements Decision {

        /** The detail when the visibility could not be changed: the message comes back after the queue's timeout. */
        String detailIfNotDelayed() {
            return outcome == Outcome.TRANSIENT
                    ? detail + " (visibility change failed: back after the queue's visibility timeout)"
                    : detail;
        }
    }

    /**
     * Back after {@code seconds}, the hold schedule's wait ({@link Outcome#HELD} by the breaker, or
     * {@link Outcome#SLOW}): the message's visibility is changed, noted on the row for the release on close, and
     * it is reported.
     *
     * @param firstHoldToNote the paste's first hold, to note on its row (this is its first wait); null if noted
     * @param noted           the delivery's first statement already noted the hold (first hold and message): only
     *                        the visibility is left to change
     */
    record Hold(
            Outcome outcome,
            Failure failure,
            int seconds,
            String detail,
            @Nullable Instant firstHoldToNote,
            boolean noted)
            implements Decision {}

    /**
     * Waiting past the hold limit: handed to the dead-letter queue and acknowledged ({@link Outcome#OVERDUE}); if
     * the hand-off fails, reported as still {@code waiting} and back after the queue's visibility timeout.
     *
     * @param overdue since when it waits, and the limit
     * @param detail  the waiting delivery's own detail
     */
    record HandToDeadLetterQueue(Outcome waiting, Failure failure, String overdue, String detail) implements Decision {

        @Override
        public Outcome outcome() {
            return Outcome.OVERDUE;
        }

        String handedDetail() {
            return overdue + ": handed to the dead-letter queue";
        }

        String notHandedDetail() {
            return overdue + "; could not hand it to the dead-letter queue, back after the queue's visibility timeout: "
                    + detail;
        }
    }
}
