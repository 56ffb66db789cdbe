package dev.pastebin.upload;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.pastebin.core.delivery.Delivery;

/**
 * One SQS record as the upload worker needs it. {@code delivery} says which delivery of the job this is:
 * SQS's {@code ApproximateReceiveCount}, 1 on the first delivery, +1 on each redelivery. It is not the
 * paste's S3 attempt (a delivery held by the breaker makes no attempt): that is on the paste's row
 * ({@link dev.pastebin.core.delivery.S3Attempt}).
 */
public record UploadMessage(String messageId, String receiptHandle, String body, Delivery delivery) {

    static final String RECEIVE_COUNT = "ApproximateReceiveCount";

    static UploadMessage of(SQSEvent.SQSMessage record) {
        return new UploadMessage(
                record.getMessageId(), record.getReceiptHandle(), record.getBody(), deliveryOf(record));
    }

    /** A missing or garbled count is taken as the first delivery: the schedule starts short, never skips to FAILED. */
    private static Delivery deliveryOf(SQSEvent.SQSMessage record) {
        var attributes = record.getAttributes();
        String count = attributes == null ? null : attributes.get(RECEIVE_COUNT);
        try {
            return count == null ? Delivery.FIRST : new Delivery(Math.max(1, Integer.parseInt(count.trim())));
        } catch (NumberFormatException e) {
            return Delivery.FIRST;
        }
    }
}
