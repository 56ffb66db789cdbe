package dev.pastebin.core.delivery;

import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.random.RestoreSafeRandom;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.random.RandomGenerator;

/**
 * When will this job be delivered again? The one place that answers it (docs/design.md, "Retry schedule" and
 * "Circuit breaker"), from {@link DeliveryProperties} alone, for every way a delivery can end:
 *
 * <ul>
 *   <li>a transient failure with fast attempts left: the backoff after its {@link S3Attempt}, or after its
 *       {@link Delivery} when it failed before S3 ({@link #backoffSeconds(S3Attempt, ErrorClass)},
 *       {@link #backoffSeconds(Delivery, ErrorClass)}), with jitter ({@link BackoffPolicy});
 *   <li>its fast attempts used up (slow), or held by the open breaker: the hold schedule's wait from its first hold,
 *       until the breaker's next probe but no sooner than its shortest hold, nor, while many are held, than the
 *       held backlog's spread ({@link #hold}, {@link HoldSchedule});
 *   <li>past the hold limit: overdue, handed to the dead-letter queue ({@link Hold#overdue()});
 *   <li>the breaker closing: the held jobs released at {@code release-rate} ({@link #releasePlan()});
 *   <li>the 202 of a paste still being stored: no sooner than its upload can next finish
 *       ({@link #uploadNotBefore}).
 * </ul>
 *
 * The queue's receive budget, which must cover all of it, is {@link ReceiveBudget}; SQS's own limits are
 * {@link SqsLimits}. Nothing here reads a clock, the database or the breaker: the caller passes what they say.
 */
@Singleton
public final class DeliverySchedule {

    /**
     * How long a waiting job stays away, in whole seconds (the unit of SQS's visibility timeout).
     *
     * @param overdue past the hold limit: the job goes to the dead-letter queue
     */
    public record Hold(int seconds, boolean overdue) {}

    private final DeliveryProperties properties;
    private final BackoffPolicy backoff;
    private final HoldSchedule holds;

    /** Jitter from {@link RestoreSafeRandom}: environments restored from one SnapStart snapshot draw differently. */
    @Inject
    public DeliverySchedule(DeliveryProperties properties) {
        this(properties, RestoreSafeRandom.generator());
    }

    /** With a given random source, for tests. */
    public DeliverySchedule(DeliveryProperties properties, RandomGenerator random) {
        this.properties = properties;
        this.backoff = new BackoffPolicy(properties, random);
        this.holds = new HoldSchedule(properties, random);
    }

    /** Whether a transient failure of {@code attempt} is retried on the fast schedule (else it goes slow). */
    public boolean hasFastAttemptsLeft(S3Attempt attempt) {
        return backoff.hasAttemptsLeft(attempt);
    }

    /**
     * Whether a transient failure of {@code attempt} fails the paste for good: only with
     * {@code give-up-after-attempts} set, and from that attempt on (by default never).
     */
    public boolean givesUpAfter(S3Attempt attempt) {
        return backoff.givesUpAfter(attempt);
    }

    /** The backoff after the failed S3 {@code attempt}, as a visibility timeout. */
    public int backoffSeconds(S3Attempt attempt, ErrorClass errorClass) {
        return backoff.visibilityTimeoutSeconds(attempt, errorClass);
    }

    /** The un-jittered backoff after the failed S3 {@code attempt}, in seconds: the schedule the docs state. */
    public double nominalBackoffSeconds(S3Attempt attempt, ErrorClass errorClass) {
        return backoff.nominalDelaySeconds(attempt.number(), errorClass);
    }

    /** The backoff after a {@code delivery} that failed before any S3 attempt (the database, poison), by its number. */
    public int backoffSeconds(Delivery delivery, ErrorClass errorClass) {
        return backoff.visibilityTimeoutSeconds(delivery, errorClass);
    }

    /**
     * The wait of a job held by the open breaker or retrying slowly, waiting for {@code waitedFor} since its first
     * hold, with the breaker's next probe {@code untilProbe} away (zero for a slow retry, or when a probe is in
     * flight) and {@code heldBacklog} jobs held fleet-wide (zero for a slow retry: nothing releases it early);
     * overdue past the hold limit.
     */
    public Hold hold(Duration waitedFor, Duration untilProbe, long heldBacklog) {
        return holds.waitFor(waitedFor, untilProbe, heldBacklog);
    }

    /** How long a job waits in all, since its first hold, before it is overdue. */
    public Duration holdLimit() {
        return properties.holdLimit();
    }

    /**
     * The soonest the upload of {@code paste}, still IN_PROGRESS, can next finish: the breaker's {@code nextProbe}
     * while it is not closed, and, when the paste retries slowly (its fast attempts used up), its next S3 attempt,
     * which the hold schedule puts no sooner than its shortest wait after its last one ({@code updated_at}; the
     * wait counts from {@code first_held_at}). Null when neither holds it back.
     */
    public @Nullable Instant uploadNotBefore(Paste paste, @Nullable Instant nextProbe) {
        Instant slow = nextSlowAttempt(paste);
        if (slow == null) {
            return nextProbe;
        }
        return nextProbe != null && nextProbe.isAfter(slow) ? nextProbe : slow;
    }

    private @Nullable Instant nextSlowAttempt(Paste paste) {
        int made = paste.uploadAttempts();
        if (made == 0
                || hasFastAttemptsLeft(new S3Attempt(made))
                || paste.firstHeldAt() == null
                || paste.updatedAt() == null) {
            return null;
        }
        return holds.nextSlowAttempt(paste.firstHeldAt(), paste.updatedAt());
    }

    /** Whether the probe that closes the breaker releases the held jobs at once (else they keep their holds). */
    public boolean releasesOnClose() {
        return properties.releaseEnabled();
    }

    /** When each released job comes back, at {@code release-rate}. */
    public ReleasePlan releasePlan() {
        return new ReleasePlan(properties.releaseRate());
    }

    /** Visibility batches a release keeps in flight at once ({@code release-parallelism}). */
    public int releaseParallelism() {
        return properties.releaseParallelism();
    }
}
