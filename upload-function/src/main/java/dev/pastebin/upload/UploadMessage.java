package dev.pastebin.upload;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.pastebin.core.delivery.Delivery;
import io.micronaut.core.annotation.Nullable;

/**
 * One SQS record as the upload worker needs it. {@code delivery} says which delivery of the job this is:
 * SQS's {@code ApproximateReceiveCount}, 1 on the first delivery, +1 on each redelivery. It is not the
 * paste's S3 attempt (a delivery held by the breaker makes no attempt): that is on the paste's row
 * ({@link dev.pastebin.core.delivery.S3Attempt}). {@code groupId} is the client the create sent it for (its
 * {@code MessageGroupId}, docs/design.md "The upload queue's groups"; {@code null}: none), kept when the job is
 * handed on.
 */
public record UploadMessage(
        String messageId,
        String receiptHandle,
        String body,
        Delivery delivery,
        @Nullable String groupId) {

    static final String RECEIVE_COUNT = "ApproximateReceiveCount";
    static final String MESSAGE_GROUP_ID = "MessageGroupId";

    static UploadMessage of(SQSEvent.SQSMessage record) {
        var attributes = record.getAttributes();
        return new UploadMessage(
                record.getMessageId(),
                record.getReceiptHandle(),
                record.getBody(),
                deliveryOf(record),
                attributes == null ? null : attributes.get(MESSAGE_GROUP_ID));
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
