package dev.pastebin.api.create;

import static dev.pastebin.core.failure.Dependency.DATABASE;

import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.paste.ApiKeyInvalidException;
import dev.pastebin.core.paste.ApiKeyQuotaExceededException;
import dev.pastebin.core.paste.ApiKeyRequiredException;
import dev.pastebin.core.paste.ContentBlockedException;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.IdempotencyKey;
import dev.pastebin.core.paste.IdempotencyKeyExhaustedException;
import dev.pastebin.core.paste.IdempotencyKeyReusedException;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Creating a paste (docs/design.md, "States"): insert the row IN_PROGRESS, then hand the content to the upload worker through
 * the queue ({@link UploadJobSender}). The row is written first so that a job never refers to a paste the database
 * does not know; if the job cannot be enqueued (by the create, nor by any replay of it) the row is marked FAILED at
 * once, so it never waits IN_PROGRESS for an upload that will not come. With an {@code Idempotency-Key}, the key is claimed in the row's transaction, and a
 * request that finds it held by the same request replays that paste instead ({@link IdempotentReplay}), sending its
 * job again while the paste is IN_PROGRESS: the first request may have died between its commit and its send, and a
 * 201 must mean that a job exists and that nothing will fail the paste for want of one (docs/design.md, "Idempotent
 * create").
 */
@Singleton
@Requires(classes = SqsClient.class) // the functions that create send upload jobs
public class CreatePasteService {

    /** With 62^11 codes a collision is already rare; five in a row means something else is wrong. */
    public static final int MAX_INSERT_ATTEMPTS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(CreatePasteService.class);

    /** The Idempotency-Key scope of an API key's creates ({@code idempotency_keys.caller}). */
    static final String API_KEY_SCOPE = "api-key:";

    private final PasteRepository repository;
    private final IdempotencyKeys idempotencyKeys;
    private final TransactionOperations<Connection> transactions;
    private final ShortCodes shortCodes;
    private final DeleteTokens deleteTokens;
    private final DependencyCalls dependencies;
    private final FailureClassifier classifier;
    private final IdempotentReplay replays;
    private final UploadJobSender jobs;
    private final ContentBlocklist blocklist;
    private final CreateAccess access;
    private final Metrics metrics;
    private final Clock clock = Clock.systemUTC();

    public CreatePasteService(
            PasteRepository repository,
            IdempotencyKeys idempotencyKeys,
            TransactionOperations<Connection> transactions,
            ShortCodes shortCodes,
            DeleteTokens deleteTokens,
            DependencyCalls dependencies,
            FailureClassifier classifier,
            IdempotentReplay replays,
            UploadJobSender jobs,
            ContentBlocklist blocklist,
            CreateAccess access,
            Metrics metrics) {
        this.repository = repository;
        this.idempotencyKeys = idempotencyKeys;
        this.transactions = transactions;
        this.shortCodes = shortCodes;
        this.deleteTokens = deleteTokens;
        this.dependencies = dependencies;
        this.classifier = classifier;
        this.replays = replays;
        this.jobs = jobs;
        this.blocklist = blocklist;
        this.access = access;
        this.metrics = metrics;
    }

    /**
     * What the client is told: the paste, a deletion token it alone knows, and whether this was a replay.
     *
     * @param status IN_PROGRESS for a new paste; a replay tells the paste's state now
     */
    public record Creation(
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
     * @param credential     what the request presented to prove it may create (checked only when the operator
     *                       requires an API key: {@link CreateAccess})
     * @param client         the address the request came from; its job's message group unless an API key admitted
     *                       the create ({@link UploadGroup})
     * @throws DependencyUnavailableException when the database or the queue cannot be reached
     * @throws IdempotencyKeyReusedException when the key belongs to another request
     * @throws PasteNotFoundException        when the paste the key created is gone
     * @throws IdempotencyKeyExhaustedException when the key has answered {@link IdempotentReplay#MAX_REPLAYS} replays
     * @throws ContentBlockedException       when the content's SHA-256 is on the operator's blocklist
     * @throws ApiKeyRequiredException       when an API key is required and none was presented
     * @throws ApiKeyInvalidException        when the credential is no bearer token, or its key unknown or revoked
     * @throws ApiKeyQuotaExceededException  when the paste would take the key past a daily limit (nothing stored)
     */
    public Creation create(
            PasteRequest request,
            @Nullable String userId,
            @Nullable IdempotencyKey idempotencyKey,
            CreateCredential credential,
            ClientAddress client) {
        // Who may create, before anything is looked up or written (anyone: no statement)
        ApiKeyLookup.Grant grant = access.admit(credential).orElse(null);
        // Whom the fair queue counts the job against: the key, which its holder cannot change, or the address
        UploadGroup group = grant != null ? UploadGroup.ofApiKey(grant.keyId()) : UploadGroup.of(client);
        // An API key's Idempotency-Keys are its own: the holder of another key, who may send the same key and bytes,
        // must not replay this key's paste and get a deletion token for it (anonymous callers share one scope)
        IdempotencyKey scopedKey = grant != null
                        && idempotencyKey != null
                        && idempotencyKey.caller().isEmpty()
                ? new IdempotencyKey(API_KEY_SCOPE + grant.keyId(), idempotencyKey.key())
                : idempotencyKey;
        byte[] content = request.content();
        CreateAccess.Claim claim = grant == null ? null : access.claim(grant, content.length);
        PasteOptions options = request.options();
        String sha256 = ContentHash.sha256Hex(content);
        // One probe of the blocklist's primary key before anything is written (docs/design.md, "Takedowns and the
        // blocklist"): the same round trip on every create, under a millisecond on the database's side.
        if (dependencies.call(DATABASE, () -> blocklist.existsById(sha256))) {
            metrics.put(Metric.BLOCKED_CREATES, 1);
            throw new ContentBlockedException("This content was blocked by the operator");
        }
        DeleteTokens.Issued token = deleteTokens.issue();
        Instant expiresAt = options.expiresAt(clock.instant());
        String fingerprint = IdempotentReplay.fingerprint(sha256, options, request.metadata());
        for (int attempt = 1; attempt <= MAX_INSERT_ATTEMPTS; attempt++) {
            Paste paste = Paste.inProgress(
                            shortCodes.next(),
                            userId,
                            sha256,
                            content.length,
                            token.sha256(),
                            expiresAt,
                            options.readOnce(),
                            request.metadata())
                    .withUploadGroup(group.id());
            Optional<IdempotencyKeys.Claimed> earlier;
            try {
                earlier = dependencies.call(DATABASE, () -> insert(paste, scopedKey, fingerprint, claim));
            } catch (RuntimeException e) {
                if (!classifier.isDuplicateKey(e)) {
                    throw e;
                }
                LOG.warn("short code collision on attempt {} of {}; drawing another", attempt, MAX_INSERT_ATTEMPTS);
                continue;
            }
            if (earlier.isPresent()) {
                return replays.replay(earlier.get(), scopedKey, fingerprint, token, content, group);
            }
            // the rest of the request is about this paste (the HTTP filter clears the MDC after the response)
            LogContext.forPaste(paste.shortCode());
            // a paste whose job cannot be queued is FAILED: its key's claim is given back
            jobs.send(
                    new UploadJob(paste.shortCode(), sha256, content),
                    group,
                    scopedKey,
                    claim == null ? null : () -> access.release(claim));
            LOG.info(
                    "paste {} created IN_PROGRESS ({} bytes, {}{}{})",
                    paste.shortCode(),
                    content.length,
                    grant != null ? "API key " + grant.keyId() : userId == null ? "anonymous" : "user",
                    expiresAt == null ? "" : ", expires " + expiresAt,
                    options.readOnce() ? ", read once" : "");
            return new Creation(
                    paste.shortCode(), PasteStatus.IN_PROGRESS, token.token(), expiresAt, options.readOnce(), false);
        }
        throw new IllegalStateException("no free short code after " + MAX_INSERT_ATTEMPTS + " attempts");
    }

    /**
     * Inserts the row; with an idempotency key, in one transaction with claiming it, unless an earlier request holds
     * it (returned); with an API key's claim, in one transaction with taking the paste from the key's day (a paste
     * over the key's limits rolls back, its row and key claim with it). Without either, the insert alone: the
     * anonymous create's one statement.
     */
    private Optional<IdempotencyKeys.Claimed> insert(
            Paste paste, @Nullable IdempotencyKey key, String fingerprint, @Nullable CreateAccess.Claim claim) {
        if (key == null && claim == null) {
            repository.save(paste);
            return Optional.empty();
        }
        return transactions.executeWrite(status -> {
            Optional<IdempotencyKeys.Claimed> earlier = key == null
                    ? Optional.empty()
                    : idempotencyKeys.claim(status.getConnection(), key, fingerprint, paste.shortCode());
            if (earlier.isEmpty()) {
                repository.save(paste);
                if (claim != null) {
                    access.consume(status.getConnection(), claim, paste.shortCode());
                }
            }
            return earlier;
        });
    }
}
