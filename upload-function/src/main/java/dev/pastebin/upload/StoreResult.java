package dev.pastebin.upload;

import dev.pastebin.core.paste.PasteStatus;

/** How storing one upload job ended when nothing failed. */
sealed interface StoreResult {

    /**
     * The content is in S3 and the row moved to PROCESSED.
     *
     * @param s3Attempt    which real S3 attempt succeeded (1: the first)
     * @param sinceCreated from the row's creation to PROCESSED
     */
    record Stored(int s3Attempt, java.time.Duration sinceCreated) implements StoreResult {
    }

    /** The row was already terminal before this delivery started: a redelivery or a concurrent copy won. */
    record AlreadyTerminal(PasteStatus status) implements StoreResult {
    }

    /** The row became terminal while this delivery was uploading; {@code detail} says what was done about it. */
    record LostRace(String detail) implements StoreResult {
    }

    /** The breaker stayed open longer than the paste may wait (since its creation): it is given up. */
    record GaveUpWaiting(java.time.Duration maxWait) implements StoreResult {
    }

    /** No row for the job's short code: no retry can ever process it. */
    record NoRow() implements StoreResult {
    }
}
