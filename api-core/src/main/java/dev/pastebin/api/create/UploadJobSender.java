package dev.pastebin.api.create;

import static dev.pastebin.core.failure.Dependency.UPLOAD_QUEUE;

import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.IdempotencyKey;
import dev.pastebin.core.paste.PasteRepository;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Hands a paste's content to the upload worker through the queue (docs/design.md, "States" and "Idempotent
 * create"), and compensates a send that fails. A paste's senders are its create and each replay of the create that
 * found it IN_PROGRESS; each sends the job from its own copy of the content, the only one there is. A sender whose
 * send fails counts itself on the row, and the one whose failure is the last of all the senders' marks the row
 * FAILED in the same statement, so the paste never waits IN_PROGRESS for an upload that will not come, and lets its
 * Idempotency-Key go, so that the client's retry creates the paste afresh. While another sender's job may exist,
 * the row stays IN_PROGRESS for it. A send that succeeds writes nothing.
 */
@Singleton
@Requires(classes = SqsClient.class)
class UploadJobSender {

    private static final Logger LOG = LoggerFactory.getLogger(UploadJobSender.class);

    private final PasteRepository repository;
    private final IdempotencyKeys idempotencyKeys;
    private final TransactionOperations<Connection> transactions;
    private final UploadJobCodec codec;
    private final SqsClient sqs;
    private final UploadQueueProperties queue;
    private final DependencyCalls dependencies;
    private final UploadFairness fairness;

    UploadJobSender(
            PasteRepository repository,
            IdempotencyKeys idempotencyKeys,
            TransactionOperations<Connection> transactions,
            UploadJobCodec codec,
            SqsClient sqs,
            UploadQueueProperties queue,
            DependencyCalls dependencies,
            UploadFairness fairness) {
        this.repository = repository;
        this.idempotencyKeys = idempotencyKeys;
        this.transactions = transactions;
        this.codec = codec;
        this.sqs = sqs;
        this.queue = queue;
        this.dependencies = dependencies;
        this.fairness = fairness;
    }

    /**
     * The job of a paste this request has just inserted IN_PROGRESS, or of one a replay of its create found
     * IN_PROGRESS (after adding its deletion token, which makes it one of the paste's senders). If the send fails and
     * every other sender's has failed too, the paste is failed and its key ({@code null}: none) released before the
     * failure is thrown, and so is what this request claimed from its API key ({@code releaseClaim}, {@code null}:
     * nothing claimed; a replay claims nothing); otherwise the paste stays IN_PROGRESS for the job another sender may
     * have queued. The job is sent in {@code group}'s message group, the client the fair queue counts it against,
     * and, with the upload fairness delay on, delayed when that client already has a backlog ({@link UploadFairness}).
     *
     * @throws DependencyUnavailableException when the queue cannot be reached
     */
    void send(UploadJob job, UploadGroup group, @Nullable IdempotencyKey key, @Nullable Runnable releaseClaim) {
        int delaySeconds = fairness.delaySeconds(group, job.shortCode());
        try {
            sqs.sendMessage(b -> {
                b.queueUrl(queue.url())
                        .messageBody(codec.encode(job))
                        // on a standard queue the group only tells the fair queue whose job this is: no FIFO ordering
                        .messageGroupId(group.id());
                if (delaySeconds > 0) {
                    b.delaySeconds(delaySeconds);
                }
            });
        } catch (RuntimeException e) {
            LOG.warn(
                    "paste {}: enqueueing the upload job failed ({}); counting the failure",
                    job.shortCode(),
                    e.toString());
            if (failedByThisSend(
                    job.shortCode(), "enqueue failed: " + e.getClass().getSimpleName())) {
                if (key != null) {
                    forget(key, job.shortCode());
                }
                if (releaseClaim != null) {
                    releaseClaim.run();
                }
            }
            throw dependencies.unavailableOrItself(UPLOAD_QUEUE, e);
        }
    }

    /** True when the row is now FAILED; false when another sender's job may exist, or counting failed too. */
    private boolean failedByThisSend(String shortCode, String reason) {
        try {
            Optional<Boolean> failed = repository.countJobSendFailure(shortCode, reason);
            if (failed.orElse(false)) {
                LOG.warn("paste {} marked FAILED: every send of its upload job failed", shortCode);
                return true;
            }
            if (failed.isPresent()) {
                LOG.warn("paste {} stays IN_PROGRESS: another send of its upload job has not failed", shortCode);
            } else {
                LOG.warn("paste {} not marked FAILED: it left IN_PROGRESS", shortCode);
            }
        } catch (RuntimeException e) {
            // The sweeper's stuck-row reconciliation is the last line for this one.
            LOG.error("paste {} stays IN_PROGRESS: counting its failed send failed too ({})", shortCode, e.toString());
        }
        return false;
    }

    /** The client is told 503 and retries with the same key: that retry must create the paste, not replay a FAILED one. */
    private void forget(IdempotencyKey key, String shortCode) {
        try {
            transactions.executeWrite(status -> {
                idempotencyKeys.forget(status.getConnection(), key, shortCode);
                return null;
            });
        } catch (RuntimeException e) {
            // A retry then answers 404 for the FAILED paste; the key is swept after its retention.
            LOG.error("paste {}: releasing its Idempotency-Key failed too ({})", shortCode, e.toString());
        }
    }
}
