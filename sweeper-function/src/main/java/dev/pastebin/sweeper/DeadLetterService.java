package dev.pastebin.sweeper;

import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.config.DeadLetterQueueProperties;
import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.delivery.SqsLimits;
import dev.pastebin.core.job.MalformedUploadJobException;
import dev.pastebin.core.job.S3Notifications;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.storage.LargeFileStore;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Re-evaluates the upload queue's dead letters (docs/design.md, "What happens to FAILED rows"): upload jobs, and S3's
 * notifications of a large paste's staged file (docs/design.md, "Large files: straight to S3"), each judged by its
 * paste, the job's short code or the one the staged key names. Each message gets one log line with its verdict and
 * reason:
 * <ul>
 *   <li>one whose paste is still IN_PROGRESS (and within the requeue window) is <b>requeued</b>: its body, as it
 *       is, sent to the upload queue, then deleted here, so a crash in between duplicates it (the worker is
 *       idempotent) instead of losing it; 10 at a time (SendMessageBatch, DeleteMessageBatch);</li>
 *   <li>one whose paste is terminal or has no row can never be used and is <b>deleted</b>; so is S3's test event
 *       and a notification of no staged file of this bucket: the worker has nothing to do for them;</li>
 *   <li>a message that is neither a job this version decodes nor a notification of one object is <b>kept</b>: it
 *       is the only trace of what went wrong, a worker that understands it may yet be deployed, and SQS drops it
 *       when its retention ends. One whose row is past the requeue window is kept too: the row is marked stuck soon,
 *       and the message is then deleted as terminal.</li>
 * </ul>
 * While the S3 breaker is not closed, nothing is received at all: a requeued job would only be held again, so
 * the dead letters wait here (the queue's retention is counted from their hand-off or first send) and the first
 * run after the breaker closes requeues them. Only when the open breaker's probe is due does a run requeue one
 * batch (10), so that an upload probes S3 even when every pending job waits here. A received message stays invisible for the rest of the invocation, so a run sees each message once and the
 * kept ones are there again for the next run. The run stops at the per-run limit or near the deadline; what it
 * did not receive waits for the next run.
 */
@Singleton
public class DeadLetterService {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterService.class);

    /** ReceiveMessage returns at most 10 messages. */
    private static final int MAX_MESSAGES_PER_RECEIVE = SqsLimits.BATCH_ENTRIES;
    /** Long polling: an empty answer then means the queue is empty, not only the servers that were sampled. */
    private static final int WAIT_TIME_SECONDS = 1;

    private final SqsClient sqs;
    private final UploadJobCodec codec;
    private final S3Notifications notifications;
    private final LargeFileStore largeFiles;
    private final PasteRepository pastes;
    private final UploadQueueProperties uploadQueue;
    private final DeadLetterQueueProperties deadLetterQueue;
    private final SweeperProperties properties;
    private final S3CircuitBreaker breaker;

    public DeadLetterService(
            SqsClient sqs,
            UploadJobCodec codec,
            S3Notifications notifications,
            LargeFileStore largeFiles,
            PasteRepository pastes,
            UploadQueueProperties uploadQueue,
            DeadLetterQueueProperties deadLetterQueue,
            SweeperProperties properties,
            S3CircuitBreaker breaker) {
        this.sqs = sqs;
        this.codec = codec;
        this.notifications = notifications;
        this.largeFiles = largeFiles;
        this.pastes = pastes;
        this.uploadQueue = uploadQueue;
        this.deadLetterQueue = deadLetterQueue;
        this.properties = properties;
        this.breaker = breaker;
    }

    public DeadLetterReport reevaluate(Deadline deadline) {
        int left = properties.deadLettersPerRun();
        if (!breaker.closed()) {
            boolean probeDue =
                    breaker.nextProbe().map(at -> !at.isAfter(Instant.now())).orElse(false);
            if (!probeDue) {
                // A requeued job would only be held again; here its retention (counted from its hand-off) is the
                // longest SQS gives, and messages nobody receives stay in the queue's age metric and its alarm.
                LOG.info("the S3 breaker is not closed: dead letters stay in the dead-letter queue until it is");
                return new DeadLetterReport(0, 0, 0, true);
            }
            // With every pending job in here no upload is left to probe S3, and the breaker would never close:
            // one batch goes back, and its first delivery is the probe (the rest are handed back at once).
            LOG.info("the S3 breaker's probe is due: one batch of dead letters requeued to probe S3");
            left = Math.min(left, MAX_MESSAGES_PER_RECEIVE);
        }
        int requeued = 0;
        int deleted = 0;
        int kept = 0;
        boolean queueEmpty = false;
        while (!queueEmpty && left > 0 && deadline.allowsMoreWork()) {
            List<Message> batch = receive(Math.min(MAX_MESSAGES_PER_RECEIVE, left), deadline);
            queueEmpty = batch.isEmpty();
            left -= batch.size();
            var toRequeue = new ArrayList<Message>();
            var toDelete = new ArrayList<Message>();
            for (Message message : batch) {
                if (!deadline.allowsMoreWork()) {
                    break; // the rest of the batch is visible again once the invocation is over
                }
                try (var ignored = LogContext.forMessage(message.messageId())) {
                    Verdict verdict = judge(message.body());
                    switch (verdict.action()) {
                        case KEEP -> {
                            LOG.warn(
                                    "dead letter {} (sent {}) kept: {}",
                                    message.messageId(),
                                    sent(message),
                                    verdict.reason());
                            kept++;
                        }
                        case DELETE -> {
                            LOG.info(
                                    "dead letter {} (sent {}) deleted: {}",
                                    message.messageId(),
                                    sent(message),
                                    verdict.reason());
                            toDelete.add(message);
                            deleted++;
                        }
                        case REQUEUE -> {
                            LOG.info(
                                    "dead letter {} (sent {}) requeued: {}",
                                    message.messageId(),
                                    sent(message),
                                    verdict.reason());
                            toRequeue.add(message);
                        }
                    }
                }
            }
            List<Message> sent = requeue(toRequeue);
            requeued += sent.size();
            kept += toRequeue.size() - sent.size();
            toDelete.addAll(sent);
            delete(toDelete);
        }
        return new DeadLetterReport(requeued, deleted, kept, !queueEmpty);
    }

    /**
     * Sends the messages to the upload queue with one SendMessageBatch (the same bodies and message groups, so the
     * worker gets exactly the jobs create sent and the notifications S3 sent, which carry no group); returns those SQS
     * took, which are deleted here only after. One it refused stays, for the next run.
     */
    private List<Message> requeue(List<Message> messages) {
        if (messages.isEmpty()) {
            return List.of();
        }
        var entries = new ArrayList<SendMessageBatchRequestEntry>();
        for (int i = 0; i < messages.size(); i++) {
            entries.add(SendMessageBatchRequestEntry.builder()
                    .id(Integer.toString(i))
                    .messageBody(messages.get(i).body())
                    // its client's group (docs/design.md, "The upload queue's groups"): without one, the fair
                    // queue would count each requeued job as a client of its own, never a noisy one
                    .messageGroupId(messages.get(i).attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID))
                    .build());
        }
        var response = sqs.sendMessageBatch(b -> b.queueUrl(uploadQueue.url()).entries(entries));
        if (response.hasFailed() && !response.failed().isEmpty()) {
            LOG.warn(
                    "{} dead letters not requeued (they stay for the next run): {}",
                    response.failed().size(),
                    response.failed());
        }
        return response.successful().stream()
                .map(ok -> messages.get(Integer.parseInt(ok.id())))
                .toList();
    }

    private static String sent(Message message) {
        return Optional.ofNullable(message.attributes().get(MessageSystemAttributeName.SENT_TIMESTAMP))
                .map(millis -> Instant.ofEpochMilli(Long.parseLong(millis)).toString())
                .orElse("?");
    }

    private Verdict judge(String body) {
        Optional<S3Notifications.Notification> notification = notifications.parse(body);
        if (notification.isPresent()) {
            return judgeNotification(notification.get());
        }
        UploadJob job;
        try {
            job = codec.decode(body);
        } catch (MalformedUploadJobException e) {
            return new Verdict(
                    Action.KEEP,
                    "not an upload job this version can decode (" + e.getMessage() + "), nor an S3 notification");
        }
        return judgeByPaste(job.shortCode());
    }

    /**
     * S3's notification, judged as the worker would take it (UploadPasteService): by the paste of the one staged file
     * it names.
     */
    private Verdict judgeNotification(S3Notifications.Notification notification) {
        if (notification.testEvent()) {
            return new Verdict(Action.DELETE, "S3's test event: nothing to do");
        }
        if (notification.objects().size() != 1) {
            // the worker verifies one file a message, as S3 sends them, and fails any other as poison
            return new Verdict(
                    Action.KEEP,
                    "an S3 notification of " + notification.objects().size() + " objects, not one: the upload worker"
                            + " cannot verify it");
        }
        S3Notifications.CreatedObject object = notification.objects().getFirst();
        Optional<String> fileId = largeFiles.fileIdOfStagingKey(object.bucket(), object.key());
        if (fileId.isEmpty()) {
            return new Verdict(
                    Action.DELETE,
                    "s3://" + object.bucket() + "/" + object.key() + " is no staged file of this bucket: nothing to"
                            + " verify");
        }
        return judgeByPaste(PasteFile.shortCodeOf(fileId.get()));
    }

    private Verdict judgeByPaste(String shortCode) {
        LogContext.forPaste(shortCode);
        Optional<Paste> row = pastes.findById(shortCode);
        if (row.isEmpty()) {
            return new Verdict(Action.DELETE, "paste " + shortCode + " has no row");
        }
        Paste paste = row.get();
        if (paste.status() != PasteStatus.IN_PROGRESS) {
            return new Verdict(Action.DELETE, "paste " + shortCode + " is " + paste.status());
        }
        // This JVM's clock against the database's timestamp: a skew moves the window by as much, far less than the
        // hour of slack in stuckAfter (SweeperProperties.DELIVERY_SLACK).
        if (paste.createdAt().isBefore(Instant.now().minus(properties.requeueWindow()))) {
            return new Verdict(
                    Action.KEEP,
                    "paste " + shortCode + " is IN_PROGRESS but older than the requeue window ("
                            + properties.requeueWindow() + "); it is marked stuck at " + properties.stuckAfter()
                            + ", then this dead letter is deleted");
        }
        return new Verdict(Action.REQUEUE, "paste " + shortCode + " is IN_PROGRESS");
    }

    private List<Message> receive(int maxMessages, Deadline deadline) {
        // invisible until the invocation is over: each message is seen once per run
        int visibilitySeconds = SqsLimits.visibilityTimeoutSeconds(Math.ceilDiv(deadline.remainingMillis(), 1000L));
        return sqs.receiveMessage(b -> b.queueUrl(deadLetterQueue.url())
                        .maxNumberOfMessages(maxMessages)
                        .waitTimeSeconds(WAIT_TIME_SECONDS)
                        .visibilityTimeout(visibilitySeconds)
                        .messageSystemAttributeNames(
                                MessageSystemAttributeName.SENT_TIMESTAMP, MessageSystemAttributeName.MESSAGE_GROUP_ID))
                .messages();
    }

    /** One DeleteMessageBatch; a message it fails to delete is back next run, and judged (or requeued) again. */
    private void delete(List<Message> messages) {
        if (messages.isEmpty()) {
            return;
        }
        var entries = new ArrayList<DeleteMessageBatchRequestEntry>();
        for (int i = 0; i < messages.size(); i++) {
            entries.add(DeleteMessageBatchRequestEntry.builder()
                    .id(Integer.toString(i))
                    .receiptHandle(messages.get(i).receiptHandle())
                    .build());
        }
        var response =
                sqs.deleteMessageBatch(b -> b.queueUrl(deadLetterQueue.url()).entries(entries));
        if (response.hasFailed() && !response.failed().isEmpty()) {
            LOG.warn(
                    "{} dead letters not deleted (back next run): {}",
                    response.failed().size(),
                    response.failed());
        }
    }

    private enum Action {
        REQUEUE,
        DELETE,
        KEEP
    }

    private record Verdict(Action action, String reason) {}
}
