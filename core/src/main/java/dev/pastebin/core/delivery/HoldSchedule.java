package dev.pastebin.core.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * How long a job waiting on the breaker stays away (docs/design.md, "Circuit breaker"): held by the open
 * breaker, or retrying slowly once its fast attempts are used up. The breaker decides calls and says when its
 * next probe is; this decides waits.
 *
 * <p>A hold lasts until the breaker's next probe, but at least {@code hold-at-least} and at least half the time
 * the job has been waiting so far, capped at {@code max-hold}, plus up to {@code hold-jitter}. The growth is what
 * makes a long outage cheap: with the defaults the first holds last 15 s to the probe (about 10 s to 30 s), and
 * from ten minutes on every hold lasts 5 min, so a whole day of holding takes under 300 receives, which the
 * queue's {@code maxReceiveCount} can cover (at most {@link SqsLimits#MAX_MAX_RECEIVE_COUNT}). A job waits for
 * {@code hold-limit} since its first hold; past it, it is overdue and handed to the dead-letter queue.
 *
 * <p>While many jobs are held, a breaker hold also lasts at least the held backlog divided by
 * {@code held-delivery-rate}: the fleet's held deliveries then come back at about that rate, whatever the backlog, and
 * do not crowd out first deliveries (5,000 held at 100 a second: 50 s; 50,000: 500 s), up to {@code
 * max-backlog-hold}, past max-hold. Only with release on close, which brings every held job back when the breaker
 * closes: without it a longer hold would delay recovery.
 */
final class HoldSchedule {

    private final DeliveryProperties properties;
    private final RandomGenerator random;

    HoldSchedule(DeliveryProperties properties, RandomGenerator random) {
        this.properties = properties;
        this.random = random;
    }

    /**
     * The wait of a job that has been waiting for {@code waitedFor} since its first hold, with the breaker's next
     * probe {@code untilProbe} away (zero for a slow retry, which waits only its minimum) and {@code heldBacklog} jobs
     * held by the breaker fleet-wide (zero for a slow retry). Overdue: the worker
     * hands the job to the dead-letter queue instead of waiting; an overdue job that stays (the hand-off failed)
     * stays away at least {@code max-hold}, never {@code hold-at-least}: a job whose first hold is days old (a dead
     * letter the sweeper requeued) must not spin through its receives.
     */
    DeliverySchedule.Hold waitFor(Duration waitedFor, Duration untilProbe, long heldBacklog) {
        if (pastLimit(waitedFor)) {
            return new DeliverySchedule.Hold(seconds(properties.maxHold().plus(jitter())), true);
        }
        return new DeliverySchedule.Hold(
                seconds(hold(waitedFor, untilProbe, heldBacklog).plus(jitter())), false);
    }

    /** The soonest a slow retry whose last S3 attempt was at {@code lastAttempt} makes its next one. */
    Instant nextSlowAttempt(Instant firstHeldAt, Instant lastAttempt) {
        return lastAttempt.plus(minimumHold(Duration.between(firstHeldAt, lastAttempt)));
    }

    /**
     * The most deliveries a job can wait in before it passes the hold limit: every hold as short as
     * {@link #minimumHold} allows (the probe due at once, no jitter).
     */
    int heldDeliveriesWithinLimit() {
        int deliveries = 0;
        for (Duration heldFor = Duration.ZERO; !pastLimit(heldFor); heldFor = heldFor.plus(minimumHold(heldFor))) {
            deliveries++;
        }
        return deliveries;
    }

    /** The schedule in the words of its settings, for the messages that ask to change them. */
    String describe() {
        return "hold-limit " + properties.holdLimit() + ", holds from hold-at-least " + properties.holdAtLeast()
                + " growing to max-hold " + properties.maxHold();
    }

    /** The shortest hold of a job held for {@code heldFor} so far, whenever the probe is due. */
    Duration minimumHold(Duration heldFor) {
        Duration half = heldFor.dividedBy(2);
        Duration atLeast = half.compareTo(properties.holdAtLeast()) > 0 ? half : properties.holdAtLeast();
        return atLeast.compareTo(properties.maxHold()) < 0 ? atLeast : properties.maxHold();
    }

    /**
     * The hold before jitter: until the probe, but at least {@link #minimumHold}, at most max-hold; and at least the
     * {@link #backlogSpread} of {@code heldBacklog} held jobs.
     */
    Duration hold(Duration heldFor, Duration untilProbe, long heldBacklog) {
        Duration wait = Collections.max(List.of(minimumHold(heldFor), untilProbe));
        Duration capped = wait.compareTo(properties.maxHold()) < 0 ? wait : properties.maxHold();
        return Collections.max(List.of(capped, backlogSpread(heldBacklog)));
    }

    /**
     * The hold that brings {@code heldBacklog} held jobs back at {@code held-delivery-rate} a second, at most
     * max-backlog-hold; zero without release on close.
     */
    Duration backlogSpread(long heldBacklog) {
        if (!properties.releaseEnabled() || heldBacklog <= 0) {
            return Duration.ZERO;
        }
        Duration spread = Duration.ofMillis(Math.ceilDiv(heldBacklog * 1000, properties.heldDeliveryRate()));
        return spread.compareTo(properties.maxBacklogHold()) < 0 ? spread : properties.maxBacklogHold();
    }

    /** Whether a job held for {@code heldFor} is past the hold limit. */
    boolean pastLimit(Duration heldFor) {
        return heldFor.compareTo(properties.holdLimit()) >= 0;
    }

    private Duration jitter() {
        return Duration.ofMillis(random.nextLong(properties.holdJitter().toMillis() + 1));
    }

    private static int seconds(Duration wait) {
        return SqsLimits.visibilityTimeoutSeconds(Math.ceilDiv(wait.toMillis(), 1000));
    }
}
