package dev.pastebin.upload;

import java.util.Locale;

/** What one delivery of an upload job came to; the {@code outcome} field of the attempt log line. */
enum Outcome {
    /** Stored and the row moved to PROCESSED. Acknowledged. */
    SUCCESS(false),
    /** Transient failure with attempts left: visibility set to the backoff delay, reported for redelivery. */
    TRANSIENT(true),
    /** Permanent failure: row moved to FAILED. Acknowledged. */
    PERMANENT(false),
    /** Transient failure on the last attempt: row moved to FAILED. Acknowledged. */
    EXHAUSTED(false),
    /** S3 not called (the shared breaker is open) or misconfigured for everyone: back at the next probe; no attempt used. */
    HELD(true),
    /**
     * Held for longer than the hold limit: reported, coming back after hold-at-least, until the queue's redrive
     * moves it to the dead-letter queue, which keeps it for the sweeper to requeue. No attempt used.
     */
    OVERDUE(true),
    /** The row was already terminal (a redelivery or a concurrent copy won). Acknowledged. */
    DUPLICATE(false),
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
