package dev.pastebin.upload;

import java.time.Duration;

/**
 * The longest one record of a batch can take, from the configured timeouts: what
 * {@code pastebin.upload.remaining-time-margin} must cover, so that no record started inside the margin is
 * cut off by the Lambda timeout (its S3 attempt would go uncounted and its message would wait out the
 * queue's visibility timeout). A record runs these steps one after another:
 * <ol>
 *   <li>find the row; read the breaker's row; PUT the object; count the answer on the breaker's row (only
 *       while it counts failures); move the row to PROCESSED: {@value #DATABASE_STEPS} database steps and one
 *       S3 call.</li>
 * </ol>
 * A database step waits for a pooled connection at most {@code poolWait} (the datasource's
 * {@code connection-timeout}) and then for its answer at most {@code statementBound}: the server's
 * {@code statement_timeout}, or the JDBC {@code socketTimeout} when the socket is half-open, whichever is
 * longer. The S3 call is bounded by its call timeout, or by its attempts' timeouts when they add up to less.
 */
record RecordTimeBudget(Duration poolWait, Duration statementBound, Duration s3Call) {

    static final int DATABASE_STEPS = 4;

    static RecordTimeBudget of(Duration poolWait, Duration statementTimeout, Duration socketTimeout, UploadProperties upload) {
        Duration s3Attempts = upload.s3AttemptTimeout().multipliedBy(upload.s3MaxAttempts());
        Duration s3Call = s3Attempts.compareTo(upload.s3CallTimeout()) < 0 ? s3Attempts : upload.s3CallTimeout();
        Duration statementBound = statementTimeout.compareTo(socketTimeout) > 0 ? statementTimeout : socketTimeout;
        return new RecordTimeBudget(poolWait, statementBound, s3Call);
    }

    Duration worstCase() {
        return poolWait.plus(statementBound).multipliedBy(DATABASE_STEPS).plus(s3Call);
    }
}
