package dev.pastebin.sweeper;

import io.micronaut.serde.annotation.Serdeable;

/**
 * What one re-evaluation of the dead-letter queue did.
 *
 * @param requeued  jobs and S3 notifications whose paste is still IN_PROGRESS, sent back to the upload queue
 * @param deleted   messages deleted because their paste is terminal or has no row, and S3 notifications with nothing
 *                  to verify (its test event, a key that is no staged file)
 * @param kept      messages left in the queue: ones that are neither a job that decodes nor a notification of one
 *                  object, ones whose row is past the requeue window, and ones SQS refused to requeue (back next run)
 * @param remaining true when the run stopped before it found the queue empty (the deadline or the per-run limit),
 *                  or left the queue alone because the S3 breaker is not closed
 */
@Serdeable
public record DeadLetterReport(int requeued, int deleted, int kept, boolean remaining) {}
