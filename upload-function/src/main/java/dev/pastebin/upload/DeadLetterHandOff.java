package dev.pastebin.upload;

import dev.pastebin.core.config.DeadLetterQueueProperties;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Moves a job past the hold limit to the dead-letter queue in one delivery (docs/design.md, "Circuit breaker"):
 * the queue's redrive would need all its remaining receives, and with a large backlog the fleet cannot give
 * every job hundreds more receives before the upload queue's retention deletes it. The job is sent as it is, in its
 * message group (the sweeper requeues it, in that group, once the breaker is closed) and then acknowledged; a crash in between leaves two
 * copies, never none. Best effort: a failed send leaves the job in the upload queue.
 */
@Singleton
class DeadLetterHandOff {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandOff.class);

    private final SqsClient sqs;
    private final DeadLetterQueueProperties deadLetterQueue;

    DeadLetterHandOff(SqsClient sqs, DeadLetterQueueProperties deadLetterQueue) {
        this.sqs = sqs;
        this.deadLetterQueue = deadLetterQueue;
    }

    /** Sends the job to the dead-letter queue; true once SQS has it, so the delivery may be acknowledged. */
    boolean send(UploadMessage message) {
        try {
            // in its client's group, which the sweeper's requeue keeps: a job without one would count as a client
            // of its own in the fair queue (docs/design.md, "The upload queue's groups")
            sqs.sendMessage(b -> b.queueUrl(deadLetterQueue.url())
                    .messageBody(message.body())
                    .messageGroupId(message.groupId()));
            return true;
        } catch (RuntimeException e) {
            LOG.warn("could not hand message {} to the dead-letter queue: {}", message.messageId(), e.toString());
            return false;
        }
    }
}
