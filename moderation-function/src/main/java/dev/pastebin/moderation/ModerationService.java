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
import dev.pastebin.core.storage.PasteContentStore;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's commands (docs/operating.md, "Takedown runbook"). A takedown, in one database transaction: lock
 * the paste's row whatever its state (IN_PROGRESS, PROCESSED, read-once), remove it, leave the tombstone that makes
 * every read route answer 451, audit it with the content's hash and size from the row, blocklist the hash (unless
 * asked not to), and delete the object before the commit, so that an S3 that refuses leaves everything as it was.
 * Then one {@code invalidate} message with every edge path goes to the outbox. A takedown of a code that is already
 * taken down answers so and sends the invalidation again (a lost one heals by repeating the command); a code with
 * neither a row nor a tombstone answers that there was nothing to take down, and leaves no tombstone: an unknown
 * code must not become a 451 that says something was there.
 *
 * <p>A takedown of a paste still being stored wins: its row is gone, so the upload worker's guarded move to
 * PROCESSED changes nothing and it removes the object its PUT may have written (PasteUploader's lost race).
 */
@Singleton
class ModerationService {

    static final int MAX_REASON_LENGTH = 1000;
    static final int MAX_ACTOR_LENGTH = 512;

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
            // before the commit: if S3 refuses, the row comes back and the command can be repeated
            int deleted = contentStore.deleteAll(contentStore.locationsOf(code, paste.s3Location()));
            return Optional.of(new Removal(paste, String.valueOf(entry.id()), deleted > 0));
        });
        if (removal.isPresent()) {
            Removal removed = removal.get();
            metrics.put(Metric.TAKEDOWNS, 1);
            String reference = "takedown:" + removed.auditId();
            List<String> paths = invalidate(code, reference);
            LOG.info(
                    "paste {} taken down ({} {}, {} bytes, sha256 {}, blocked {}); invalidation {}",
                    code,
                    removed.paste().status(),
                    removed.paste().readOnce() ? "read-once" : "",
                    removed.paste().sizeBytes(),
                    removed.paste().contentSha256(),
                    block,
                    reference);
            return new ModerationAnswer(
                    "taken-down",
                    code,
                    true,
                    removed.paste().status().name(),
                    removed.objectDeleted(),
                    removed.paste().contentSha256(),
                    removed.paste().sizeBytes(),
                    block || blocklist.existsById(removed.paste().contentSha256()),
                    reference,
                    paths,
                    null,
                    null);
        }
        Optional<Takedown> earlier = takedowns.findById(code);
        if (earlier.isPresent()) {
            Takedown tombstone = earlier.get();
            String reference = "takedown:" + code + ":again";
            List<String> paths = invalidate(code, reference);
            return new ModerationAnswer(
                    "already-taken-down",
                    code,
                    false,
                    null,
                    null,
                    tombstone.contentSha256(),
                    tombstone.contentSize(),
                    blocklist.existsById(tombstone.contentSha256()),
                    reference,
                    paths,
                    null,
                    "already taken down at " + tombstone.takenDownAt() + " by " + tombstone.requestedBy()
                            + "; the edge invalidation was sent again");
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
                "no paste has this code (never created, expired, deleted or read); no tombstone was left");
    }

    private List<String> invalidate(String code, String reference) {
        List<String> paths = PastePaths.edgePaths(code);
        outbox.send(OutboxMessage.invalidate(paths, reference));
        return paths;
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
        return new ModerationAnswer("listed", null, null, null, null, null, null, null, null, null, entries, null);
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

    private record Removal(Paste paste, String auditId, boolean objectDeleted) {}
}
