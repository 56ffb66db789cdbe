package dev.pastebin.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.TestDelivery;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** How long held jobs stay away, and how many receives a day of holding takes, with the default settings. */
class HoldScheduleTest {

    private final HoldSchedule schedule =
            new HoldSchedule(TestDelivery.defaults().build(), new SplittableRandom(1));

    @Test
    void aHoldLastsUntilTheProbeButAtLeastHoldAtLeastAndHalfTheTimeHeldAtMostMaxHold() {
        assertEquals(Duration.ofSeconds(15), schedule.hold(Duration.ZERO, Duration.ZERO, 0), "hold-at-least");
        assertEquals(
                Duration.ofSeconds(40), schedule.hold(Duration.ZERO, Duration.ofSeconds(40), 0), "until the probe");
        assertEquals(
                Duration.ofSeconds(60),
                schedule.hold(Duration.ofMinutes(2), Duration.ofSeconds(10), 0),
                "half of 2 min held");
        assertEquals(Duration.ofMinutes(5), schedule.hold(Duration.ofHours(3), Duration.ZERO, 0), "max-hold");
        assertEquals(
                Duration.ofMinutes(5), schedule.hold(Duration.ZERO, Duration.ofMinutes(30), 0), "never past max-hold");
    }

    /**
     * 100 held deliveries a second at most, whatever the backlog: 5,000 held come back every 50 s instead of every
     * 15 s, 50,000 every 500 s, past max-hold, up to max-backlog-hold. A backlog of 1,500 or less changes nothing.
     */
    @Test
    void whileManyAreHeldAHoldLastsAtLeastTheBacklogAtTheHeldDeliveryRate() {
        assertEquals(Duration.ofSeconds(15), schedule.hold(Duration.ZERO, Duration.ZERO, 1_500), "hold-at-least");
        assertEquals(Duration.ofSeconds(50), schedule.hold(Duration.ZERO, Duration.ofSeconds(4), 5_000));
        assertEquals(
                Duration.ofSeconds(60),
                schedule.hold(Duration.ofMinutes(2), Duration.ofSeconds(4), 5_000),
                "half of 2 min held is longer");
        assertEquals(Duration.ofMillis(50_010), schedule.hold(Duration.ZERO, Duration.ZERO, 5_001), "rounded up");
        assertEquals(Duration.ofSeconds(500), schedule.hold(Duration.ZERO, Duration.ZERO, 50_000), "past max-hold");
        assertEquals(
                Duration.ofMinutes(15), schedule.hold(Duration.ZERO, Duration.ZERO, 1_000_000), "max-backlog-hold");
        assertEquals(
                Duration.ofMinutes(5),
                schedule.hold(Duration.ofHours(3), Duration.ofMinutes(30), 1_000),
                "the probe and the time held stay capped at max-hold");

        var faster =
                new HoldSchedule(TestDelivery.defaults().heldDeliveryRate(1_000).build(), new SplittableRandom(1));
        assertEquals(Duration.ofSeconds(50), faster.hold(Duration.ZERO, Duration.ZERO, 50_000));
    }

    /** Without release on close a held job waits out its hold after S3 is back: the backlog must not lengthen it. */
    @Test
    void withoutReleaseOnCloseTheBacklogDoesNotLengthenAHold() {
        var noRelease =
                new HoldSchedule(TestDelivery.defaults().releaseEnabled(false).build(), new SplittableRandom(1));
        assertEquals(Duration.ofSeconds(15), noRelease.hold(Duration.ZERO, Duration.ZERO, 50_000));
        assertEquals(
                Duration.ofMinutes(5),
                TestDelivery.defaults().releaseEnabled(false).build().longestHold());
        assertEquals(Duration.ofMinutes(15), TestDelivery.defaults().build().longestHold());
    }

    @Test
    void theHoldLimitCountsFromTheFirstHold() {
        assertFalse(schedule.pastLimit(Duration.ofHours(23).plusMinutes(59)));
        assertTrue(schedule.pastLimit(Duration.ofHours(24)));
    }

    /**
     * A job past the hold limit (a dead letter the sweeper requeued, whose first hold is days old, overdue on its
     * first delivery) waits max-hold, whatever the probe: waiting only hold-at-least made it spin through its
     * receives, one every 15-20 s.
     */
    @Test
    void anOverdueJobWaitsMaxHoldNotHoldAtLeast() {
        for (Duration untilProbe : new Duration[] {Duration.ZERO, Duration.ofSeconds(10)}) {
            DeliverySchedule.Hold wait = schedule.waitFor(Duration.ofDays(3), untilProbe, 50_000);
            assertTrue(wait.overdue());
            assertTrue(
                    wait.seconds() >= 300 && wait.seconds() <= 305,
                    "max-hold plus up to hold-jitter: " + wait.seconds());
        }
    }

    /** 0, 15, 30, 45, 67.5 s ... doubling by half until 10 min, then every 5 min: 10 + 286 holds in a day. */
    @Test
    void aDayOfHoldingTakesAtMost296Deliveries() {
        assertEquals(296, schedule.heldDeliveriesWithinLimit());
    }

    @Test
    void withoutGrowthADayOfHoldAtLeastWouldTakeThousandsOfDeliveries() {
        var flat = TestDelivery.defaults().maxHold(Duration.ofSeconds(15)).build();
        int deliveries = new HoldSchedule(flat, new SplittableRandom(1)).heldDeliveriesWithinLimit();
        assertEquals(24 * 60 * 4, deliveries);
        assertTrue(deliveries > SqsLimits.MAX_MAX_RECEIVE_COUNT, "more than SQS's 1,000 receives");
    }
}
