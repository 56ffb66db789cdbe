package dev.pastebin.upload;

import java.util.Locale;

/** What one delivery of an upload job came to; the {@code outcome} field of the delivery log line. */
enum Outcome {
    /** Stored and the row moved to PROCESSED. Acknowledged. */
    SUCCESS(false),
    /** Transient failure with fast attempts left: visibility set to the backoff delay, reported for redelivery. */
    TRANSIENT(true),
    /**
     * Transient S3 failure with the fast attempts used up: not FAILED (unless given up), the job waits on the breaker's hold
     * schedule (growing towards max-hold, from the first hold) and each redelivery makes one S3 attempt.
     */
    SLOW(true),
    /** Permanent failure: row moved to FAILED. Acknowledged. */
    PERMANENT(false),
    /**
     * Only with {@code give-up-after-attempts} set: the paste's S3 attempt of that number failed transiently, so
     * the row moved to FAILED (the original specification's rule). Acknowledged.
     */
    GAVE_UP(false),
    /** S3 not called (the shared breaker is open) or misconfigured for everyone: back at the next probe; no attempt used. */
    HELD(true),
    /**
     * Held or slow for longer than the hold limit: handed to the dead-letter queue, which keeps it for the sweeper to
     * requeue once the breaker is closed. Acknowledged. (If the hand-off fails, the delivery ends held or slow.)
     */
    OVERDUE(false),
    /** The row was already terminal (a redelivery or a concurrent copy won). Acknowledged. */
    DUPLICATE(false),
    /** The paste was removed (no row): its object, if a delivery stored one, is deleted. Acknowledged. */
    REMOVED(false),
    /** Not an upload job this worker can process: reported until the queue's redrive moves it to the DLQ. */
    POISON(true);

    private final boolean redeliver;

    Outcome(boolean redeliver) {
        this.redeliver = redeliver;
    }

    /** Whether the message is listed in {@code batchItemFailures} (it comes back) instead of being deleted. */
    boolean redeliver() {
        return redeliver;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
