package dev.pastebin.upload;

import dev.pastebin.core.paste.PasteStatus;

/** How storing one upload job ended when nothing failed this paste. */
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

    /**
     * S3 was not usable for anyone: the breaker is open ({@code cause} a
     * {@link dev.pastebin.core.breaker.CircuitOpenException}) or S3 just said it is misconfigured for everyone
     * (and opened it). No S3 attempt was spent.
     *
     * @param heldSince when the breaker first held this paste's upload
     */
    record Held(RuntimeException cause, java.time.Instant heldSince) implements StoreResult {
    }

    /** No row for the job's short code: no retry can ever process it. */
    record NoRow() implements StoreResult {
    }
}
