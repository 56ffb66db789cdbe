package dev.pastebin.moderation;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.moderation.AuditEntry;
import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.moderation.ModerationAction;
import dev.pastebin.core.moderation.ModerationAudit;
import dev.pastebin.core.moderation.ModerationOutbox;
import dev.pastebin.core.moderation.OutboxMessage;
import dev.pastebin.core.moderation.Takedown;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PastePaths;
import dev.pastebin.core.paste.PasteRefusal;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's commands (docs/operating.md, "Takedown runbook"). A takedown, in one database transaction: lock
 * the paste's row whatever its state (IN_PROGRESS, PROCESSED, read-once), remove it, leave the tombstone that makes
 * every read route answer 451, audit it with the content's hash and size from the row, and blocklist the hash
 * (unless asked not to). Once that has committed, one {@code invalidate} message with every edge path goes to the
 * outbox, and the content's object is deleted, outside the transaction: S3 refuses exactly when pastes wait
 * IN_PROGRESS (an outage), and a takedown must not depend on it. If S3 refuses, a {@code delete-objects} message
 * hands the delete to the outbox function, which retries it until S3 accepts ({@code pending}); if the outbox
 * refuses too, the answer says the deletion {@code failed}, and repeating the command retries it. A takedown of a
 * code that is already taken down answers so, sends the invalidation again and retries the delete of the code's
 * object (a lost invalidation or a failed delete heals by repeating the command); a code with neither a row nor a
 * tombstone answers that there was nothing to take down, and leaves no tombstone: an unknown code must not become
 * a 451 that says something was there.
 *
 * <p>A takedown of a paste still being stored wins: its row is gone, so the upload worker's guarded move to
 * PROCESSED changes nothing and it removes the object its PUT may have written (PasteUploader's lost race), and a
 * delivery that comes later finds no row, stores nothing and removes the object (no PUT).
 */
@Singleton
class ModerationService {

    static final int MAX_REASON_LENGTH = 1000;
    static final int MAX_ACTOR_LENGTH = 512;
    /** How much of a failure's message a note quotes. */
    static final int MAX_CAUSE_LENGTH = 200;

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final Logger LOG = LoggerFactory.getLogger(ModerationService.class);

    private final PasteRepository pastes;
    private final TakedownRepository takedowns;
    private final ContentBlocklist blocklist;
    private final ModerationAudit audit;
    private final PasteContentStore contentStore;
    private final TransactionOperations<Connection> transactions;
    private final ShortCodes shortCodes;
    private final ModerationOutbox outbox;
    private final Metrics metrics;

    ModerationService(
            PasteRepository pastes,
            TakedownRepository takedowns,
            ContentBlocklist blocklist,
            ModerationAudit audit,
            PasteContentStore contentStore,
            TransactionOperations<Connection> transactions,
            ShortCodes shortCodes,
            ModerationOutbox outbox,
            Metrics metrics) {
        this.pastes = pastes;
        this.takedowns = takedowns;
        this.blocklist = blocklist;
        this.audit = audit;
        this.contentStore = contentStore;
        this.transactions = transactions;
        this.shortCodes = shortCodes;
        this.outbox = outbox;
        this.metrics = metrics;
    }

    /** A bad command: answered as {@code refused} with this message. */
    static final class BadCommandException extends RuntimeException {
        BadCommandException(String message) {
            super(message, null, false, false);
        }
    }

    ModerationAnswer handle(@Nullable ModerationCommand command) {
        try {
            if (command == null || command.action() == null) {
                throw new BadCommandException("no action: say takedown, block, unblock or blocklist");
            }
            return switch (command.action()) {
                case "takedown" -> takedown(command);
                case "block" -> block(command);
                case "unblock" -> unblock(command);
                case "blocklist" -> list();
                default ->
                    throw new BadCommandException(
                            "unknown action '" + command.action() + "': say takedown, block, unblock or blocklist");
            };
        } catch (BadCommandException | PasteRefusal e) {
            LOG.info("moderation command refused: {}", e.getMessage());
            return ModerationAnswer.refused(e.getMessage());
        }
    }

    private ModerationAnswer takedown(ModerationCommand command) {
        if (command.code() == null) {
            throw new BadCommandException("takedown needs a code");
        }
        String code = shortCodes.requireWellFormed(command.code());
        String reason = required("reason", command.reason(), MAX_REASON_LENGTH);
        String actor = required("requestedBy", command.requestedBy(), MAX_ACTOR_LENGTH);
        boolean block = command.block() == null || command.block();
        Optional<Removal> removal = transactions.executeWrite(status -> {
            Optional<Paste> row = pastes.findByIdForUpdate(code);
            if (row.isEmpty()) {
                return Optional.empty();
            }
            Paste paste = row.get();
            pastes.remove(code);
            takedowns.save(Takedown.of(code, reason, actor, paste.contentSha256(), paste.sizeBytes()));
            AuditEntry entry = audit.save(AuditEntry.of(
                    ModerationAction.TAKEDOWN, actor, reason, code, paste.contentSha256(), paste.sizeBytes()));
            if (block && blocklist.add(paste.contentSha256(), reason, actor) == 1) {
                audit.save(AuditEntry.of(
                        ModerationAction.BLOCK, actor, reason, code, paste.contentSha256(), paste.sizeBytes()));
            }
            return Optional.of(new Removal(paste, String.valueOf(entry.id())));
        });
        // Committed: every read route answers 451 and no upload delivery stores the content, whatever S3 does next.
        if (removal.isPresent()) {
            Paste paste = removal.get().paste();
            metrics.put(Metric.TAKEDOWNS, 1);
            String reference = "takedown:" + removal.get().auditId();
            List<String> paths = PastePaths.edgePaths(code);
            Invalidation invalidation = invalidate(code, paths, reference);
            ObjectDeletion deletion =
                    deleteObjects(code, contentStore.locationsOf(code, paste.s3Location()), reference);
            LOG.info(
                    "paste {} taken down ({} {}, {} bytes, sha256 {}, blocked {}); invalidation {}; object {}",
                    code,
                    paste.status(),
                    paste.readOnce() ? "read-once" : "",
                    paste.sizeBytes(),
                    paste.contentSha256(),
                    block,
                    invalidation.reference() != null ? invalidation.reference() : "not sent",
                    deletion.state());
            return new ModerationAnswer(
                    "taken-down",
                    code,
                    true,
                    paste.status().name(),
                    deletion.state(),
                    paste.contentSha256(),
                    paste.sizeBytes(),
                    block || blocklist.existsById(paste.contentSha256()),
                    invalidation.reference(),
                    paths,
                    null,
                    note(null, invalidation, deletion),
                    null);
        }
        Optional<Takedown> earlier = takedowns.findById(code);
        if (earlier.isPresent()) {
            Takedown tombstone = earlier.get();
            String reference = "takedown:" + code + ":again";
            List<String> paths = PastePaths.edgePaths(code);
            Invalidation invalidation = invalidate(code, paths, reference);
            // The tombstone records no location: the code's key in the configured bucket, where pastes are stored.
            ObjectDeletion deletion = deleteObjects(code, contentStore.locationsOf(code, null), reference);
            LOG.info(
                    "paste {} was already taken down; invalidation {}; object {}",
                    code,
                    invalidation.reference() != null ? invalidation.reference() : "not sent",
                    deletion.state());
            return new ModerationAnswer(
                    "already-taken-down",
                    code,
                    false,
                    null,
                    deletion.state(),
                    tombstone.contentSha256(),
                    tombstone.contentSize(),
                    blocklist.existsById(tombstone.contentSha256()),
                    invalidation.reference(),
                    paths,
                    null,
                    note(
                            "already taken down at " + tombstone.takenDownAt() + " by " + tombstone.requestedBy()
                                    + "; the edge invalidation and the object's deletion were tried again",
                            invalidation,
                            deletion),
                    null);
        }
        return new ModerationAnswer(
                "nothing-to-take-down",
                code,
                false,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                "no paste has this code (never created, expired, deleted or read); no tombstone was left",
                null);
    }

    /** The edge invalidation, sent to the outbox: its reference, or why it could not be sent. */
    private Invalidation invalidate(String code, List<String> paths, String reference) {
        try {
            outbox.send(OutboxMessage.invalidate(paths, reference));
            return new Invalidation(reference, null);
        } catch (RuntimeException e) {
            LOG.error(
                    "paste {}: the edge invalidation {} could not be sent; repeating the takedown sends it",
                    code,
                    reference,
                    e);
            return new Invalidation(
                    null,
                    "the edge invalidation could not be sent to the moderation outbox (" + cause(e)
                            + "): repeat the command to send it");
        }
    }

    /**
     * Deletes the objects directly; if S3 refuses, hands the delete to the outbox function ({@code pending}); if the
     * outbox refuses too, the deletion {@code failed} and repeating the command retries it.
     */
    private ObjectDeletion deleteObjects(String code, Set<ContentLocation> objects, String reference) {
        RuntimeException refused;
        try {
            contentStore.deleteAll(objects);
            return new ObjectDeletion(ModerationAnswer.DELETED, null);
        } catch (RuntimeException e) {
            refused = e;
        }
        LOG.warn(
                "paste {}: S3 refused the delete of {} ({}); the moderation outbox deletes it",
                code,
                objects,
                refused.toString());
        try {
            outbox.send(OutboxMessage.deleteObjects(objects, reference));
        } catch (RuntimeException unsent) {
            LOG.error(
                    "paste {}: the delete of {} could not be handed to the moderation outbox either; repeating the"
                            + " takedown retries it",
                    code,
                    objects,
                    unsent);
            return new ObjectDeletion(
                    ModerationAnswer.FAILED,
                    "the object's deletion failed: S3 refused it (" + cause(refused)
                            + ") and the moderation outbox could not take it (" + cause(unsent)
                            + "): repeat the command to retry it");
        }
        return new ObjectDeletion(
                ModerationAnswer.PENDING,
                "the object's deletion is pending: S3 refused it (" + cause(refused) + "); the moderation outbox"
                        + " deletes it (" + reference + "), retrying until S3 accepts");
    }

    /** The notes of a takedown's answer, or null when there is nothing to say. */
    private static @Nullable String note(@Nullable String first, Invalidation invalidation, ObjectDeletion deletion) {
        List<String> notes = Stream.of(first, invalidation.note(), deletion.note())
                .filter(Objects::nonNull)
                .toList();
        return notes.isEmpty() ? null : String.join("; ", notes);
    }

    private static String cause(RuntimeException e) {
        String cause = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return cause.length() <= MAX_CAUSE_LENGTH ? cause : cause.substring(0, MAX_CAUSE_LENGTH) + "...";
    }

    private ModerationAnswer block(ModerationCommand command) {
        String sha256 = sha256(command.sha256());
        String reason = required("reason", command.reason(), MAX_REASON_LENGTH);
        String actor = required("requestedBy", command.requestedBy(), MAX_ACTOR_LENGTH);
        boolean added = transactions.executeWrite(status -> {
            if (blocklist.add(sha256, reason, actor) == 0) {
                return false;
            }
            audit.save(AuditEntry.of(ModerationAction.BLOCK, actor, reason, null, sha256, null));
            return true;
        });
        LOG.info("content {} {}", sha256, added ? "blocklisted" : "was already blocklisted");
        return ModerationAnswer.onHash(added ? "blocked" : "already-blocked", sha256);
    }

    private ModerationAnswer unblock(ModerationCommand command) {
        String sha256 = sha256(command.sha256());
        String reason = required("reason", command.reason(), MAX_REASON_LENGTH);
        String actor = required("requestedBy", command.requestedBy(), MAX_ACTOR_LENGTH);
        boolean removed = transactions.executeWrite(status -> {
            if (blocklist.remove(sha256) == 0) {
                return false;
            }
            audit.save(AuditEntry.of(ModerationAction.UNBLOCK, actor, reason, null, sha256, null));
            return true;
        });
        LOG.info("content {} {}", sha256, removed ? "removed from the blocklist" : "was not blocklisted");
        return ModerationAnswer.onHash(removed ? "unblocked" : "not-blocked", sha256);
    }

    private ModerationAnswer list() {
        List<ModerationAnswer.Entry> entries = blocklist.listAll().stream()
                .map(e -> new ModerationAnswer.Entry(e.sha256(), e.reason(), e.addedBy(), String.valueOf(e.addedAt())))
                .toList();
        return new ModerationAnswer(
                "listed", null, null, null, null, null, null, null, null, null, entries, null, null);
    }

    private static String sha256(@Nullable String given) {
        String sha256 = given == null ? "" : given.trim().toLowerCase(Locale.ROOT);
        if (!SHA256.matcher(sha256).matches()) {
            throw new BadCommandException("sha256 must be 64 hexadecimal digits (the content's SHA-256)");
        }
        return sha256;
    }

    private static String required(String name, @Nullable String value, int maxLength) {
        if (value == null || value.isBlank()) {
            throw new BadCommandException(name + " is required");
        }
        if (value.length() > maxLength) {
            throw new BadCommandException(name + " is longer than " + maxLength + " characters");
        }
        return value.strip();
    }

    private record Removal(Paste paste, String auditId) {}

    /** The invalidation's reference when it was sent, else a note on why not. */
    private record Invalidation(
            @Nullable String reference, @Nullable String note) {}

    /** {@link ModerationAnswer#objectDeletion()}'s value, and a note unless the object was deleted. */
    private record ObjectDeletion(String state, @Nullable String note) {}
}
