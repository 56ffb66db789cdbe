package dev.pastebin.api.create;

import dev.pastebin.core.paste.PasteRepository;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fair to every client without a fair queue (docs/design.md, "Fair to every client"): with the delay on
 * ({@link UploadFairnessProperties}), a job whose client already has more than its backlog of pastes IN_PROGRESS is
 * sent with a {@code DelaySeconds} that makes the client's jobs beyond it visible at its fair rate, so a quiet
 * client's new job is never behind a heavy client's whole backlog, whatever order the queue delivers in. The backlog
 * is counted, not kept: the client's IN_PROGRESS rows ({@code upload_group}, written with the row; a partial index
 * over IN_PROGRESS rows), so a job that is processed, failed, held or delivered again needs no bookkeeping, and
 * nothing can drift.
 */
@Singleton
class UploadFairness {

    private static final Logger LOG = LoggerFactory.getLogger(UploadFairness.class);

    private final UploadFairnessProperties properties;
    private final PasteRepository pastes;

    UploadFairness(UploadFairnessProperties properties, PasteRepository pastes) {
        this.properties = properties;
        this.pastes = pastes;
    }

    /**
     * The {@code DelaySeconds} of {@code shortCode}'s job in {@code group}: 0 with the delay off (no statement), or
     * while the client's backlog is within its limit. A count that fails delays nothing: the create goes on, its job
     * queued at once as without the delay.
     */
    int delaySeconds(UploadGroup group, String shortCode) {
        if (!properties.enabled()) {
            return 0;
        }
        try {
            return properties.delaySeconds(pastes.countPendingUploads(group.id(), shortCode));
        } catch (RuntimeException e) {
            LOG.warn(
                    "paste {}: counting its client's backlog failed ({}); its job is not delayed",
                    shortCode,
                    e.toString());
            return 0;
        }
    }
}
