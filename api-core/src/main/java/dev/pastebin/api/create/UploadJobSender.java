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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Hands a paste's content to the upload worker through the queue (docs/design.md, "States"), and compensates a
 * new paste whose job cannot be sent: its row is marked FAILED at once, so it never waits IN_PROGRESS for an
 * upload that will not come, and its Idempotency-Key is let go, so that the client's retry creates the paste
 * afresh.
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

    UploadJobSender(
            PasteRepository repository,
            IdempotencyKeys idempotencyKeys,
            TransactionOperations<Connection> transactions,
            UploadJobCodec codec,
            SqsClient sqs,
            UploadQueueProperties queue,
            DependencyCalls dependencies) {
        this.repository = repository;
        this.idempotencyKeys = idempotencyKeys;
        this.transactions = transactions;
        this.codec = codec;
        this.sqs = sqs;
        this.queue = queue;
        this.dependencies = dependencies;
    }

    /**
     * The job of a paste this request has just inserted IN_PROGRESS; if it cannot be sent, the paste is failed
     * and its key ({@code null}: none) released before the failure is thrown, and so is what it claimed from its
     * API key ({@code releaseClaim}, {@code null}: nothing claimed).
     *
     * @throws DependencyUnavailableException when the queue cannot be reached
     */
    void sendNew(UploadJob job, @Nullable IdempotencyKey key, @Nullable Runnable releaseClaim) {
        try {
            send(job);
        } catch (RuntimeException e) {
            LOG.warn(
                    "paste {}: enqueueing the upload job failed ({}); marking it FAILED",
                    job.shortCode(),
                    e.toString());
            if (markFailed(job.shortCode(), "enqueue failed: " + e.getClass().getSimpleName())) {
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

    /**
     * The job of a replayed paste still IN_PROGRESS, sent again. No compensation on failure: the first request's
     * job may be on its way, and the client retries the 503.
     *
     * @throws DependencyUnavailableException when the queue cannot be reached
     */
    void sendAgain(UploadJob job) {
        dependencies.run(UPLOAD_QUEUE, () -> send(job));
    }

    private void send(UploadJob job) {
        sqs.sendMessage(b -> b.queueUrl(queue.url()).messageBody(codec.encode(job)));
    }

    /** True when the row is now FAILED; false when a replay answered for it, or marking failed too. */
    private boolean markFailed(String shortCode, String reason) {
        try {
            if (repository.markFailedUnlessReplayed(shortCode, reason) == 1) {
                return true;
            }
            LOG.warn(
                    "paste {} not marked FAILED: a replay of its create answered for it, or it left IN_PROGRESS",
                    shortCode);
        } catch (RuntimeException e) {
            // The sweeper's stuck-row reconciliation is the last line for this one.
            LOG.error("paste {} stays IN_PROGRESS: marking it FAILED failed too ({})", shortCode, e.toString());
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
