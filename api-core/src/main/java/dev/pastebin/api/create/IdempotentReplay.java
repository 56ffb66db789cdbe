package dev.pastebin.api.create;

import static dev.pastebin.core.failure.Dependency.DATABASE;

import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.job.UploadJob;
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
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A create whose Idempotency-Key an earlier request holds (docs/design.md, "Idempotent create"): the same request
 * again is answered with the same paste, another request with the same key is refused. What makes two requests
 * the same is their {@link #fingerprint}.
 */
@Singleton
@Requires(classes = SqsClient.class)
public class IdempotentReplay {

    /**
     * How many replays one key answers, each with a deletion token of its own that the row keeps: bounded, so a
     * client replaying its key cannot make every replay rewrite an ever-longer list.
     */
    public static final int MAX_REPLAYS = 16;

    private static final Logger LOG = LoggerFactory.getLogger(IdempotentReplay.class);

    private final PasteRepository repository;
    private final UploadJobSender jobs;
    private final DependencyCalls dependencies;
    private final Clock clock = Clock.systemUTC();

    IdempotentReplay(PasteRepository repository, UploadJobSender jobs, DependencyCalls dependencies) {
        this.repository = repository;
        this.jobs = jobs;
        this.dependencies = dependencies;
    }

    /**
     * The same request again: the same paste, with a deletion token of its own added to the paste's (the server
     * keeps no token to repeat, a client that lost the first response must still be able to delete, and the
     * first response may still reach a client that will use its token). While the paste is IN_PROGRESS its job
     * is sent again from this request's content, which the fingerprint proved the same: the first request may
     * have died before sending it, and a duplicate is harmless (the upload worker's transitions are guarded).
     * The token is added before the send, and makes this replay one of the paste's senders: from then on another
     * sender's compensation, should its own send fail, leaves the paste IN_PROGRESS for this job rather than failing
     * a paste this replay answered 201 for. Should this send fail too, the last sender to fail marks the paste FAILED
     * and releases the key ({@link UploadJobSender#send}).
     *
     * @param earlier     the request that holds the key, and the paste it created
     * @param key         the key, released if this replay's failed send leaves the paste no job
     * @param fingerprint this request's
     * @param group       the message group to send the job again in: this request's client's. The paste's original
     *                    group is not stored, and a replay is the same client's in all that matters: with an API key
     *                    the Idempotency-Key is that key's alone, so the group is the same; without one it is the
     *                    client retrying, from its address now
     * @throws DependencyUnavailableException   when the database or the queue cannot be reached
     * @throws IdempotencyKeyReusedException    when the key belongs to another request
     * @throws PasteNotFoundException           when the paste the key created is gone
     * @throws IdempotencyKeyExhaustedException when the key has answered {@link #MAX_REPLAYS} replays
     */
    CreatePasteService.Creation replay(
            IdempotencyKeys.Claimed earlier,
            IdempotencyKey key,
            String fingerprint,
            DeleteTokens.Issued token,
            byte[] content,
            UploadGroup group) {
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
            jobs.send(new UploadJob(shortCode, paste.contentSha256(), content), group, key, null);
        }
        LOG.info(
                "paste {} replayed for its Idempotency-Key ({}{}), with a deletion token of its own",
                shortCode,
                paste.status(),
                paste.status() == PasteStatus.IN_PROGRESS ? ", job sent again" : "");
        return new CreatePasteService.Creation(
                shortCode, paste.status(), token.token(), paste.expiresAt(), paste.readOnce(), true);
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
    public static String fingerprint(String contentSha256, PasteOptions options, PasteMetadata metadata) {
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
}
