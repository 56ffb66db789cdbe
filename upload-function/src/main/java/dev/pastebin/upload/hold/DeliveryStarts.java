package dev.pastebin.upload.hold;

import java.time.Instant;

/**
 * A delivery's first statement: it reads the paste's row and the breaker's together and, when the breaker is open
 * for longer than the visibility change takes ({@link EarlyHold}), holds the job there and then: its first hold and
 * its message noted on the row. A delivery the open breaker holds costs this one statement (docs/scale.md, "Work per
 * operation"); a stored one, this and the move to PROCESSED.
 */
public interface DeliveryStarts {

    /**
     * @param contentSha256 the hash of the job's content (lower-case hex): a job whose content does not match the row
     *                      is never held here
     * @param receiptHandle the message this delivery received, noted when the job is held
     */
    DeliveryStart begin(String shortCode, String contentSha256, String receiptHandle, Instant now);
}
