package dev.pastebin.upload;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.moderation.AuditEntry;
import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.moderation.ModerationAction;
import dev.pastebin.core.moderation.ModerationAudit;
import dev.pastebin.core.moderation.Takedown;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queued job whose content was blocklisted after its create was accepted (docs/design.md, "Takedowns and the
 * blocklist"): it is never stored. In one transaction the IN_PROGRESS row is removed, a tombstone left (its code
 * answers 451 as a taken-down paste's) and the refusal audited ({@code upload-refused}); the job is then
 * acknowledged as a removed paste's. A row that is no longer IN_PROGRESS is left alone (a concurrent delivery or
 * takedown decided first): the removal finds nothing, and nothing else is written.
 */
@Singleton
class BlockedContentRefusal {

    /** Who the audit says refused: the worker itself, not an operator. */
    static final String ACTOR = "upload-worker";

    static final String REASON = "content is on the blocklist";

    private static final Logger LOG = LoggerFactory.getLogger(BlockedContentRefusal.class);

    private final ContentBlocklist blocklist;
    private final PasteRepository pastes;
    private final TakedownRepository takedowns;
    private final ModerationAudit audit;
    private final TransactionOperations<Connection> transactions;
    private final Metrics metrics;

    BlockedContentRefusal(
            ContentBlocklist blocklist,
            PasteRepository pastes,
            TakedownRepository takedowns,
            ModerationAudit audit,
            TransactionOperations<Connection> transactions,
            Metrics metrics) {
        this.blocklist = blocklist;
        this.pastes = pastes;
        this.takedowns = takedowns;
        this.audit = audit;
        this.transactions = transactions;
        this.metrics = metrics;
    }

    /**
     * Refuses the paste when its content is blocklisted (one probe of the blocklist's primary key per delivery);
     * empty when it is not, and the upload goes on.
     */
    Optional<StoreResult> refuseIfBlocked(Paste paste, String sha256) {
        if (!blocklist.existsById(sha256)) {
            return Optional.empty();
        }
        boolean removed = transactions.executeWrite(status -> {
            if (pastes.removeInProgress(paste.shortCode()) == 0) {
                return false;
            }
            takedowns.save(Takedown.of(paste.shortCode(), REASON, ACTOR, sha256, paste.sizeBytes()));
            audit.save(AuditEntry.of(
                    ModerationAction.UPLOAD_REFUSED, ACTOR, REASON, paste.shortCode(), sha256, paste.sizeBytes()));
            return true;
        });
        if (!removed) {
            return Optional.of(
                    new StoreResult.AlreadyTerminal("content is blocklisted; the row was no longer IN_PROGRESS"));
        }
        metrics.put(Metric.BLOCKED_UPLOADS, 1);
        LOG.warn("paste {} refused: its content is on the blocklist; row removed, nothing stored", paste.shortCode());
        return Optional.of(
                new StoreResult.Removed("content is blocklisted: upload refused, row removed, nothing stored"));
    }
}
