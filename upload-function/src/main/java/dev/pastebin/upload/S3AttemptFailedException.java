package dev.pastebin.upload;

import dev.pastebin.core.delivery.S3Attempt;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;

/**
 * The upload's S3 call failed; {@link #attempt()} is which real S3 attempt of the paste it was (as counted on
 * its row), the number the fast schedule and its backoff go by; {@link #firstHeldAt()} is when the paste's wait
 * on the hold schedule began (the row's {@code first_held_at}, null if it never waited), which the slow
 * retries after the fast attempts go by. The cause is the SDK's exception.
 */
class S3AttemptFailedException extends RuntimeException {

    private final S3Attempt attempt;
    private final @Nullable Instant firstHeldAt;

    S3AttemptFailedException(S3Attempt attempt, @Nullable Instant firstHeldAt, RuntimeException cause) {
        super("S3 attempt " + attempt + " failed: " + cause.getMessage(), cause, false, false);
        this.attempt = attempt;
        this.firstHeldAt = firstHeldAt;
    }

    S3Attempt attempt() {
        return attempt;
    }

    @Nullable
    Instant firstHeldAt() {
        return firstHeldAt;
    }
}
