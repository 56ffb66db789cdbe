package dev.pastebin.upload.hold;

import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.delivery.ReleasePlan;
import dev.pastebin.core.delivery.SqsLimits;
import dev.pastebin.upload.UploadMessage;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;

/**
 * Sets when a reported message comes back. Both calls are best effort and never throw: a message whose
 * visibility could not be changed still comes back, after the queue's own visibility timeout.
 */
@Singleton
public class MessageVisibility {

    private static final Logger LOG = LoggerFactory.getLogger(MessageVisibility.class);

    private final SqsClient sqs;
    private final UploadQueueProperties queue;

    public MessageVisibility(SqsClient sqs, UploadQueueProperties queue) {
        this.sqs = sqs;
        this.queue = queue;
    }

    /** Hides the message for {@code seconds} from now: the backoff delay before its next delivery. */
    public boolean delay(UploadMessage message, int seconds) {
        try {
            sqs.changeMessageVisibility(b -> b.queueUrl(queue.url())
                    .receiptHandle(message.receiptHandle())
                    .visibilityTimeout(seconds));
            return true;
        } catch (RuntimeException e) {
            LOG.warn(
                    "ChangeMessageVisibility({} s) failed for message {}: {}; it comes back after the queue's "
                            + "visibility timeout instead",
                    seconds,
                    message.messageId(),
                    e.toString());
            return false;
        }
    }

    /**
     * What one visibility batch did to its entries' receipt handles: changed, or refused by SQS (whose message is gone,
     * say); none of either when the call itself failed. A handle made stale by a later receive is not reliably
     * refused: on a standard queue AWS says an older handle "might succeed", and then the message being worked on
     * becomes visible early. That costs one duplicate delivery (every transition is guarded and the object key and
     * bytes are the same), never a loss.
     */
    record BatchResult(List<String> changed, List<String> refused, boolean callFailed) {}

    /**
     * Makes held messages visible again after each release's seconds (at most 10: one ChangeMessageVisibilityBatch).
     * An entry SQS refuses leaves that message on its own hold.
     */
    BatchResult release(List<ReleasePlan.Release> releases) {
        var entries = new ArrayList<ChangeMessageVisibilityBatchRequestEntry>();
        for (int i = 0; i < releases.size(); i++) {
            entries.add(ChangeMessageVisibilityBatchRequestEntry.builder()
                    .id(Integer.toString(i))
                    .receiptHandle(releases.get(i).held().heldReceiptHandle())
                    .visibilityTimeout(releases.get(i).seconds())
                    .build());
        }
        try {
            var response = sqs.changeMessageVisibilityBatch(
                    b -> b.queueUrl(queue.url()).entries(entries));
            Set<String> refusedIds = response.failed().stream().map(f -> f.id()).collect(Collectors.toSet());
            var changed = new ArrayList<String>();
            var refused = new ArrayList<String>();
            for (int i = 0; i < releases.size(); i++) {
                (refusedIds.contains(Integer.toString(i)) ? refused : changed)
                        .add(releases.get(i).held().heldReceiptHandle());
            }
            if (!refused.isEmpty()) {
                LOG.info(
                        "{} held messages not released (each keeps its own hold): {}",
                        refused.size(),
                        response.failed());
            }
            return new BatchResult(changed, refused, false);
        } catch (RuntimeException e) {
            LOG.warn("could not release {} held messages (each keeps its own hold): {}", releases.size(), e.toString());
            return new BatchResult(List.of(), List.of(), true);
        }
    }

    /** Makes messages visible again at once (records not started because the invocation ran out of time). */
    public void releaseNow(List<UploadMessage> messages) {
        for (int from = 0; from < messages.size(); from += SqsLimits.BATCH_ENTRIES) {
            var entries = new ArrayList<ChangeMessageVisibilityBatchRequestEntry>();
            var chunk = messages.subList(from, Math.min(messages.size(), from + SqsLimits.BATCH_ENTRIES));
            for (int i = 0; i < chunk.size(); i++) {
                entries.add(ChangeMessageVisibilityBatchRequestEntry.builder()
                        .id(Integer.toString(i))
                        .receiptHandle(chunk.get(i).receiptHandle())
                        .visibilityTimeout(0)
                        .build());
            }
            try {
                var response = sqs.changeMessageVisibilityBatch(
                        b -> b.queueUrl(queue.url()).entries(entries));
                if (response.hasFailed() && !response.failed().isEmpty()) {
                    LOG.warn(
                            "could not release {} unstarted messages: {}",
                            response.failed().size(),
                            response.failed());
                }
            } catch (RuntimeException e) {
                LOG.warn("could not release {} unstarted messages: {}", chunk.size(), e.toString());
            }
        }
    }
}
