package dev.pastebin.upload;

import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The longest one record of a batch can take, from the configured timeouts: what
 * {@code pastebin.upload.remaining-time-margin} must cover, so that no record started inside the margin is
 * cut off by the Lambda timeout (its S3 attempt would go uncounted and its whole batch would wait out the
 * queue's visibility timeout). A record runs its steps one after another, and how many depends on its
 * {@link Path}; the budget is that of the longest.
 *
 * <p>A database step waits for a pooled connection at most {@code poolWait} (the datasource's
 * {@code connection-timeout}) and then for its answer at most {@code statementBound}: the server's
 * {@code statement_timeout}, or the JDBC {@code socketTimeout} when the socket is half-open, whichever is
 * longer. An S3 call is bounded by its call timeout, or by its attempts' timeouts when they add up to less;
 * an SQS call (a visibility change, a hand-off to the dead-letter queue) by its call timeout.
 */
record RecordTimeBudget(Duration poolWait, Duration statementBound, Duration s3Call, Duration sqsCall) {

    /**
     * What each way through a record waits on. Every path that calls S3 starts with one statement that reads the row
     * and the breaker (DeliveryStarts) and may be the breaker's probe (one more update to elect it, and one to record
     * its answer).
     */
    enum Path {
        /** Start, elect the probe, PUT, count the answer, PROCESSED. */
        STORED(4, 1, 0),
        /** As stored, but the guarded update finds the row terminal: re-read it, DELETE the object. */
        LOST_RACE(5, 2, 0),
        /** Start, elect, PUT fails, count the attempt, count the failure, then the visibility change. */
        RETRIED(4, 1, 1),
        /** As retried, but the fast attempts are used up: the visibility change, then the wait noted (first wait too). */
        SLOW(5, 1, 1),
        /** As retried, but past the hold limit: the hand-off to the dead-letter queue instead of the visibility change. */
        OVERDUE(4, 1, 1),
        /** As retried, but permanent, so FAILED: the update, and when it fails the visibility change after all. */
        FAILED(5, 1, 1),
        /** Start, elect, PUT misconfigured, open the breaker, read the next probe, the hold, its note. */
        HELD_MISCONFIGURED(5, 1, 1),
        /**
         * Start, elect (lost), the hold, its note refused because the breaker closed meanwhile, visible again at once.
         * (Held by the start itself: that one statement and the hold.)
         */
        HELD_OPEN(3, 0, 2);

        final int databaseSteps;
        final int s3Calls;
        final int sqsCalls;

        Path(int databaseSteps, int s3Calls, int sqsCalls) {
            this.databaseSteps = databaseSteps;
            this.s3Calls = s3Calls;
            this.sqsCalls = sqsCalls;
        }
    }

    static RecordTimeBudget of(
            Duration poolWait,
            Duration statementTimeout,
            Duration socketTimeout,
            UploadProperties upload,
            Duration sqsCall) {
        Duration s3Attempts = upload.s3AttemptTimeout().multipliedBy(upload.s3MaxAttempts());
        Duration s3Call = s3Attempts.compareTo(upload.s3CallTimeout()) < 0 ? s3Attempts : upload.s3CallTimeout();
        Duration statementBound = statementTimeout.compareTo(socketTimeout) > 0 ? statementTimeout : socketTimeout;
        return new RecordTimeBudget(poolWait, statementBound, s3Call, sqsCall);
    }

    Duration of(Path path) {
        return poolWait.plus(statementBound)
                .multipliedBy(path.databaseSteps)
                .plus(s3Call.multipliedBy(path.s3Calls))
                .plus(sqsCall.multipliedBy(path.sqsCalls));
    }

    Path longestPath() {
        return Arrays.stream(Path.values()).max(Comparator.comparing(this::of)).orElseThrow();
    }

    Duration worstCase() {
        return of(longestPath());
    }
}
