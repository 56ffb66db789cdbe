package dev.pastebin.create;

import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;

import static dev.pastebin.core.failure.Dependency.DATABASE;
import static dev.pastebin.core.failure.Dependency.UPLOAD_QUEUE;

/**
 * Creating a paste (docs/design.md, "States"): insert the row IN_PROGRESS, then hand the content to the upload worker through
 * the queue. The row is written first so that a job never refers to a paste the database does not know; if
 * the job cannot be enqueued the row is marked FAILED at once, so it never waits IN_PROGRESS for an upload
 * that will not come.
 */
@Singleton
public class CreatePasteService {

    /** With 62^8 codes a collision is already rare; five in a row means something else is wrong. */
    static final int MAX_INSERT_ATTEMPTS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(CreatePasteService.class);

    private final PasteRepository repository;
    private final ShortCodes shortCodes;
    private final UploadJobCodec codec;
    private final SqsClient sqs;
    private final UploadQueueProperties queue;
    private final DependencyCalls dependencies;
    private final FailureClassifier classifier;

    public CreatePasteService(PasteRepository repository, ShortCodes shortCodes, UploadJobCodec codec, SqsClient sqs,
                              UploadQueueProperties queue, DependencyCalls dependencies, FailureClassifier classifier) {
        this.repository = repository;
        this.shortCodes = shortCodes;
        this.codec = codec;
        this.sqs = sqs;
        this.queue = queue;
        this.dependencies = dependencies;
        this.classifier = classifier;
    }

    /**
     * @param content valid UTF-8, non-empty, within the size limit (checked by the caller)
     * @param userId  the authenticated user, or {@code null} for an anonymous paste
     * @return the short code of the new IN_PROGRESS paste
     * @throws DependencyUnavailableException when the database or the queue cannot be reached
     */
    public String create(byte[] content, @Nullable String userId) {
        String sha256 = ContentHash.sha256Hex(content);
        String shortCode = insert(sha256, content.length, userId);
        // the rest of the request is about this paste (the HTTP filter clears the MDC after the response)
        LogContext.forPaste(shortCode);
        enqueue(new UploadJob(shortCode, sha256, content));
        LOG.info("paste {} created IN_PROGRESS ({} bytes, {})", shortCode, content.length, userId == null ? "anonymous" : "user");
        return shortCode;
    }

    private String insert(String sha256, int sizeBytes, @Nullable String userId) {
        for (int attempt = 1; attempt <= MAX_INSERT_ATTEMPTS; attempt++) {
            String shortCode = shortCodes.next();
            try {
                dependencies.run(DATABASE, () -> repository.save(Paste.inProgress(shortCode, userId, sha256, sizeBytes)));
                return shortCode;
            } catch (RuntimeException e) {
                if (!classifier.isDuplicateKey(e)) {
                    throw e;
                }
                LOG.warn("short code collision on attempt {} of {}; drawing another", attempt, MAX_INSERT_ATTEMPTS);
            }
        }
        throw new IllegalStateException("no free short code after " + MAX_INSERT_ATTEMPTS + " attempts");
    }

    private void enqueue(UploadJob job) {
        try {
            sqs.sendMessage(b -> b.queueUrl(queue.url()).messageBody(codec.encode(job)));
        } catch (RuntimeException e) {
            LOG.warn("paste {}: enqueueing the upload job failed ({}); marking it FAILED", job.shortCode(), e.toString());
            markFailed(job.shortCode(), "enqueue failed: " + e.getClass().getSimpleName());
            throw dependencies.unavailableOrItself(UPLOAD_QUEUE, e);
        }
    }

    private void markFailed(String shortCode, String reason) {
        try {
            if (repository.markFailed(shortCode, reason) != 1) {
                LOG.warn("paste {} was no longer IN_PROGRESS when marking it FAILED", shortCode);
            }
        } catch (RuntimeException e) {
            // The sweeper's stuck-row reconciliation is the last line for this one.
            LOG.error("paste {} stays IN_PROGRESS: marking it FAILED failed too ({})", shortCode, e.toString());
        }
    }
}
