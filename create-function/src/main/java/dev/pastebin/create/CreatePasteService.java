package dev.pastebin.create;

import static dev.pastebin.core.failure.Dependency.DATABASE;
import static dev.pastebin.core.failure.Dependency.UPLOAD_QUEUE;

import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.IdempotencyKey;
import dev.pastebin.core.paste.IdempotencyKeyExhaustedException;
import dev.pastebin.core.paste.IdempotencyKeyReusedException;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Creating a paste (docs/design.md, "States"): insert the row IN_PROGRESS, then hand the content to the upload worker through
 * the queue. The row is written first so that a job never refers to a paste the database does not know; if
 * the job cannot be enqueued the row is marked FAILED at once, so it never waits IN_PROGRESS for an upload
 * that will not come. With an {@code Idempotency-Key}, the key is claimed in the row's transaction, and a
 * request that finds it held by the same request replays that paste instead, sending its job again while the
 * paste is IN_PROGRESS: the first request may have died between its commit and its send, and a 201 must mean
 * that a job exists and that nothing will fail the paste for want of one (docs/design.md, "Idempotent create").
 */
@Singleton
public class CreatePasteService {

    /** With 62^11 codes a collision is already rare; five in a row means something else is wrong. */
    static final int MAX_INSERT_ATTEMPTS = 5;

    /**
     * How many replays one key answers, each with a deletion token of its own that the row keeps: bounded, so a
     * client replaying its key cannot make every replay rewrite an ever-longer list.
     */
    static final int MAX_REPLAYS = 16;

    private static final Logger LOG = LoggerFactory.getLogger(CreatePasteService.class);

    private final PasteRepository repository;
    private final IdempotencyKeys idempotencyKeys;
    private final TransactionOperations<Connection> transactions;
    private final ShortCodes shortCodes;
    private final DeleteTokens deleteTokens;
    private final UploadJobCodec codec;
    private final SqsClient sqs;
    private final UploadQueueProperties queue;
    private final DependencyCalls dependencies;
    private final FailureClassifier classifier;
    private final Clock clock = Clock.systemUTC();

    public CreatePasteService(
            PasteRepository repository,
            IdempotencyKeys idempotencyKeys,
            TransactionOperations<Connection> transactions,
            ShortCodes shortCodes,
            DeleteTokens deleteTokens,
            UploadJobCodec codec,
            SqsClient sqs,
            UploadQueueProperties queue,
            DependencyCalls dependencies,
            FailureClassifier classifier) {
        this.repository = repository;
        this.idempotencyKeys = idempotencyKeys;
        this.transactions = transactions;
        this.shortCodes = shortCodes;
        this.deleteTokens = deleteTokens;
        this.codec = codec;
        this.sqs = sqs;
        this.queue = queue;
        this.dependencies = dependencies;
        this.classifier = classifier;
    }

    /**
     * What the client is told: the paste, a deletion token it alone knows, and whether this was a replay.
     *
     * @param status IN_PROGRESS for a new paste; a replay tells the paste's state now
     */
    record Creation(
            String shortCode,
            PasteStatus status,
            String deleteToken,
            @Nullable Instant expiresAt,
            boolean readOnce,
            boolean replayed) {}

    /**
     * @param request        content checked by the caller (valid UTF-8, non-empty, within the size limit) and options
     * @param userId         the authenticated user, or {@code null} for an anonymous paste
     * @param idempotencyKey the request's key, or {@code null}
     * @throws DependencyUnavailableException when the database or the queue cannot be reached
     * @throws IdempotencyKeyReusedException when the key belongs to another request
     * @throws PasteNotFoundException        when the paste the key created is gone
     * @throws IdempotencyKeyExhaustedException when the key has answered {@link #MAX_REPLAYS} replays
     */
    Creation create(PasteRequest request, @Nullable String userId, @Nullable IdempotencyKey idempotencyKey) {
        byte[] content = request.content();
        PasteOptions options = request.options();
        String sha256 = ContentHash.sha256Hex(content);
        DeleteTokens.Issued token = deleteTokens.issue();
        Instant expiresAt = options.expiresAt(clock.instant());
        String fingerprint = fingerprint(sha256, options, request.metadata());
        for (int attempt = 1; attempt <= MAX_INSERT_ATTEMPTS; attempt++) {
            Paste paste = Paste.inProgress(
                    shortCodes.next(),
                    userId,
                    sha256,
                    content.length,
                    token.sha256(),
                    expiresAt,
                    options.readOnce(),
                    request.metadata());
            Optional<IdempotencyKeys.Claimed> earlier;
            try {
                earlier = dependencies.call(DATABASE, () -> insert(paste, idempotencyKey, fingerprint));
            } catch (RuntimeException e) {
                if (!classifier.isDuplicateKey(e)) {
                    throw e;
                }
                LOG.warn("short code collision on attempt {} of {}; drawing another", attempt, MAX_INSERT_ATTEMPTS);
                continue;
            }
            if (earlier.isPresent()) {
                return replay(earlier.get(), fingerprint, token, content);
            }
            // the rest of the request is about this paste (the HTTP filter clears the MDC after the response)
            LogContext.forPaste(paste.shortCode());
            enqueue(new UploadJob(paste.shortCode(), sha256, content), idempotencyKey);
            LOG.info(
                    "paste {} created IN_PROGRESS ({} bytes, {}{}{})",
                    paste.shortCode(),
                    content.length,
                    userId == null ? "anonymous" : "user",
                    expiresAt == null ? "" : ", expires " + expiresAt,
                    options.readOnce() ? ", read once" : "");
            return new Creation(
                    paste.shortCode(), PasteStatus.IN_PROGRESS, token.token(), expiresAt, options.readOnce(), false);
        }
        throw new IllegalStateException("no free short code after " + MAX_INSERT_ATTEMPTS + " attempts");
    }

    /** Inserts the row; with a key, in one transaction with claiming it, unless an earlier request holds it (returned). */
    private Optional<IdempotencyKeys.Claimed> insert(Paste paste, @Nullable IdempotencyKey key, String fingerprint) {
        if (key == null) {
            repository.save(paste);
            return Optional.empty();
        }
        return transactions.executeWrite(status -> {
            Optional<IdempotencyKeys.Claimed> earlier =
                    idempotencyKeys.claim(status.getConnection(), key, fingerprint, paste.shortCode());
            if (earlier.isEmpty()) {
                repository.save(paste);
            }
            return earlier;
        });
    }

    /**
     * The same request again: the same paste, with a deletion token of its own added to the paste's (the server
     * keeps no token to repeat, a client that lost the first response must still be able to delete, and the
     * first response may still reach a client that will use its token). While the paste is IN_PROGRESS its job
     * is sent again from this request's content, which the fingerprint proved the same: the first request may
     * have died before sending it, and a duplicate is harmless (the upload worker's transitions are guarded).
     * The token is added before the send: from then on the first request's compensation, should its own send
     * fail, leaves the paste IN_PROGRESS for this job rather than failing a paste this replay answered 201 for.
     */
    private Creation replay(
            IdempotencyKeys.Claimed earlier, String fingerprint, DeleteTokens.Issued token, byte[] content) {
        if (!earlier.requestSha256().equals(fingerprint)) {
            throw new IdempotencyKeyReusedException(
                    "This Idempotency-Key was used in the last 24 hours for a different request");
        }
        String shortCode = earlier.shortCode();
        LogContext.forPaste(shortCode);
        Paste paste = dependencies
                .call(DATABASE, () -> repository.findById(shortCode))
                .filter(p -> p.status() != PasteStatus.FAILED && !p.isExpiredAt(clock.instant()))
                .orElseThrow(() -> gone(shortCode));
        if (dependencies.call(DATABASE, () -> repository.addDeleteToken(shortCode, token.sha256(), MAX_REPLAYS)) != 1) {
            boolean stillThere = dependencies
                    .call(DATABASE, () -> repository.findById(shortCode))
                    .filter(p -> p.status() != PasteStatus.FAILED && !p.isExpiredAt(clock.instant()))
                    .isPresent();
            if (!stillThere) {
                throw gone(shortCode);
            }
            throw new IdempotencyKeyExhaustedException(
                    "This Idempotency-Key has answered " + MAX_REPLAYS + " replays, the most a key answers; the paste "
                            + shortCode + " stays. Use a new key for a new request");
        }
        if (paste.status() == PasteStatus.IN_PROGRESS) {
            // no compensation on failure: the first request's job may be on its way, and the client retries the 503
            dependencies.run(UPLOAD_QUEUE, () -> send(new UploadJob(shortCode, paste.contentSha256(), content)));
        }
        LOG.info(
                "paste {} replayed for its Idempotency-Key ({}{}), with a deletion token of its own",
                shortCode,
                paste.status(),
                paste.status() == PasteStatus.IN_PROGRESS ? ", job sent again" : "");
        return new Creation(shortCode, paste.status(), token.token(), paste.expiresAt(), paste.readOnce(), true);
    }

    private static PasteNotFoundException gone(String shortCode) {
        return new PasteNotFoundException("The paste " + shortCode
                + " this Idempotency-Key created is gone (deleted, expired, read once, or its upload failed)");
    }

    /**
     * What makes two requests "the same": the content, every option and every label (package-private for tests
     * that claim a key). Labels are added only when given, so an unlabelled request keeps the fingerprint it had
     * before labels existed (a retry across the deploy still replays); a label is tagged so that no file name can
     * pass for an absent one, and none holds a line break (PasteMetadata refuses control characters).
     */
    static String fingerprint(String contentSha256, PasteOptions options, PasteMetadata metadata) {
        StringBuilder canonical = new StringBuilder()
                .append(contentSha256)
                .append('\n')
                .append(options.expiresInSeconds())
                .append('\n')
                .append(options.readOnce());
        if (metadata.language() != null) {
            canonical.append("\nlanguage=").append(metadata.language());
        }
        if (metadata.fileName() != null) {
            canonical.append("\nfileName=").append(metadata.fileName());
        }
        return ContentHash.sha256Hex(canonical.toString().getBytes(StandardCharsets.UTF_8));
    }

    private void enqueue(UploadJob job, @Nullable IdempotencyKey key) {
        try {
            send(job);
        } catch (RuntimeException e) {
            LOG.warn(
                    "paste {}: enqueueing the upload job failed ({}); marking it FAILED",
                    job.shortCode(),
                    e.toString());
            if (markFailed(job.shortCode(), "enqueue failed: " + e.getClass().getSimpleName()) && key != null) {
                forget(key, job.shortCode());
            }
            throw dependencies.unavailableOrItself(UPLOAD_QUEUE, e);
        }
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
