package dev.pastebin.core.breaker;

import java.time.Duration;

/**
 * How long a job held by the open breaker stays away (docs/design.md, "Circuit breaker"). A hold lasts until
 * the breaker's next probe, but at least {@code hold-at-least} and at least half the time the job has been
 * held so far, capped at {@code max-hold}, plus up to {@code hold-jitter}. The growth is what makes a long
 * outage cheap: with the defaults the first holds last 15 s to the probe (about 10 s to 2 min), and from ten
 * minutes on every hold lasts 5 min, so a whole day of holding takes under 300 receives, which the queue's
 * {@code maxReceiveCount} can cover (at most 1,000). A job is held for {@code hold-limit} since its first hold;
 * past it, it is left to the queue's redrive.
 */
public final class HoldSchedule {

    private final BreakerProperties properties;

    public HoldSchedule(BreakerProperties properties) {
        this.properties = properties;
    }

    /** The shortest hold of a job held for {@code heldFor} so far, whenever the probe is due. */
    public Duration minimumHold(Duration heldFor) {
        Duration half = heldFor.dividedBy(2);
        Duration atLeast = half.compareTo(properties.holdAtLeast()) > 0 ? half : properties.holdAtLeast();
        return atLeast.compareTo(properties.maxHold()) < 0 ? atLeast : properties.maxHold();
    }

    /** The hold before jitter: until the probe, but at least {@link #minimumHold}, at most max-hold. */
    public Duration hold(Duration heldFor, Duration untilProbe) {
        Duration minimum = minimumHold(heldFor);
        Duration hold = untilProbe.compareTo(minimum) > 0 ? untilProbe : minimum;
        return hold.compareTo(properties.maxHold()) < 0 ? hold : properties.maxHold();
    }

    /** Whether a job held for {@code heldFor} is past the hold limit. */
    public boolean pastLimit(Duration heldFor) {
        return heldFor.compareTo(properties.holdLimit()) >= 0;
    }

    /**
     * The most deliveries a job can be held in before it passes the hold limit: every hold as short as
     * {@link #minimumHold} allows (the probe due at once, no jitter).
     */
    public int heldDeliveriesWithinLimit() {
        int deliveries = 0;
        for (Duration heldFor = Duration.ZERO; !pastLimit(heldFor); heldFor = heldFor.plus(minimumHold(heldFor))) {
            deliveries++;
        }
        return deliveries;
    }
}
