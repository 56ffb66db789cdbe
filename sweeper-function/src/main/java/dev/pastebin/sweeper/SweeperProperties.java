package dev.pastebin.sweeper;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * What the sweeper removes and how it paces itself. Bound from {@code pastebin.sweeper.*}, e.g.
 * {@code PASTEBIN_SWEEPER_FAILED_RETENTION=48h}.
 *
 * <p>When an IN_PROGRESS row counts as stuck is not configured but derived from the two queues' retention
 * periods, so that no job for the row can still be delivered when it is marked (docs/design.md, "What happens
 * to FAILED rows"). The defaults are the template's {@code MessageRetentionPeriod}s; the template passes the
 * same values to the function.
 *
 * @param failedRetention      how long a row is kept after it became FAILED, before it is deleted
 * @param uploadQueueRetention the upload queue's {@code MessageRetentionPeriod}
 * @param deadLetterRetention  the dead-letter queue's {@code MessageRetentionPeriod}
 * @param batchSize            rows per statement; one S3 DeleteObjects call takes at most 1000 keys
 * @param deadLettersPerRun    the most dead letters one run re-evaluates; the rest wait for the next run. 60,000 is
 *                             the upload fleet's 200 uploads a second over the 5-minute schedule, so after a long
 *                             outage the fleet, not this cap, bounds recovery (the run's deadline may stop it sooner)
 * @param stopMargin           no new batch (or dead letter) starts when less than this is left before the
 *                             Lambda deadline
 * @param orphanKeysPerRun     the most S3 keys one run checks for a row under each prefix of paste content
 *                             (pastes/, staging/, files/; {@link OrphanObjects}); 0 turns the
 *                             reconciliation off, and with it the sweep epoch that detects a restored database
 * @param orphanMinAge         an object S3 wrote more recently than this is never taken for an orphan. A margin, not
 *                             a restore's protection: past it, the objects of the pastes created since a restore
 *                             point would be orphans; what keeps them is the sweep epoch, which stops the
 *                             reconciliation while the database is behind the bucket's marker ({@link OrphanObjects})
 * @param orphanMaxShare       a page of keys whose orphaned pastes are more than this share of the pastes with keys
 *                             old enough to judge stops the reconciliation before it deletes anything (a wrong
 *                             database)
 * @param orphanGuardMinimum   a page with at most this many orphaned pastes is never stopped, whatever their share (a
 *                             small bucket with one orphan)
 * @param reportRetention      how long abuse reports and report notices are kept before they are deleted
 *                             (docs/operating.md, "Abuse reports and takedowns")
 * @param moderationRetention  how long takedown tombstones and moderation audit entries are kept (the template's
 *                             {@code ModerationRetention}); a code whose tombstone is swept answers 404, not 451
 */
@ConfigurationProperties("pastebin.sweeper")
public record SweeperProperties(
        @NotNull @Bindable(defaultValue = "24h") Duration failedRetention,
        @NotNull @Bindable(defaultValue = "4d") Duration uploadQueueRetention,
        @NotNull @Bindable(defaultValue = "14d") Duration deadLetterRetention,
        @Min(1) @Max(1000) @Bindable(defaultValue = "500") int batchSize,
        @Min(0) @Bindable(defaultValue = "60000") int deadLettersPerRun,
        @NotNull @Bindable(defaultValue = "15s") Duration stopMargin,
        @Min(0) @Bindable(defaultValue = "10000") int orphanKeysPerRun,
        @NotNull @Bindable(defaultValue = "7d") Duration orphanMinAge,

        @DecimalMin("0") @DecimalMax("1") @Bindable(defaultValue = "0.05")
        double orphanMaxShare,

        @Min(0) @Bindable(defaultValue = "20") int orphanGuardMinimum,
        @NotNull @Bindable(defaultValue = "90d") Duration reportRetention,
        @NotNull @Bindable(defaultValue = "400d") Duration moderationRetention) {

    /**
     * How long past a queue's retention a job may still reach the worker: the job is sent up to create's 20 s
     * timeout after its row's {@code created_at}, a delivery in flight when the retention ends may run for up to
     * the queue's 180 s visibility timeout, and SQS's and the database's clocks differ a little.
     */
    static final Duration DELIVERY_SLACK = Duration.ofHours(1);

    /**
     * A dead-lettered job goes back to the upload queue only while its row is younger than this. SQS counts a
     * dead letter's retention from the job's first send, seconds after its row was created, so a job the worker
     * dead-lettered can be requeued for practically as long as SQS keeps it; the bound also ends the cycle of a
     * job the worker keeps dead-lettering.
     */
    public Duration requeueWindow() {
        return deadLetterRetention;
    }

    /**
     * An IN_PROGRESS row older than this is marked FAILED with reason {@code stuck}. By then no job for it can
     * be delivered: the original left the upload queue after its retention, and the last copy the sweeper
     * requeued (within {@link #requeueWindow()}) did too.
     */
    public Duration stuckAfter() {
        return requeueWindow().plus(uploadQueueRetention).plus(DELIVERY_SLACK);
    }
}
