package dev.pastebin.core.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The breaker's state machine with the default settings, on a fixed clock. */
class BreakerPolicyTest {

    private static final BreakerProperties DEFAULTS = new BreakerProperties(
            true,
            "s3",
            Duration.ofSeconds(60),
            10,
            0.9,
            Duration.ofSeconds(10),
            Duration.ofMinutes(2),
            Duration.ofSeconds(30));

    private final BreakerPolicy policy = new BreakerPolicy(DEFAULTS);
    private final Instant t0 = Instant.parse("2026-11-23T10:00:00Z");

    private BreakerSnapshot fail(BreakerSnapshot s, Instant at) {
        return policy.afterFailure(s, at, false, false, "SERVER_ERROR");
    }

    /** One answer at {@code at}, written as the breaker writes answers: with the environment's next write. */
    private BreakerSnapshot answered(BreakerSnapshot s, Instant at) {
        UncountedSuccesses one = new UncountedSuccesses(DEFAULTS.window());
        one.add(at);
        return policy.withUncounted(s, at, one);
    }

    @Test
    void tenTransientFailuresInAWindowOpenIt() {
        BreakerSnapshot s = BreakerSnapshot.closed(t0);
        for (int i = 0; i < 9; i++) {
            s = fail(s, t0.plusSeconds(i));
            assertEquals(BreakerState.CLOSED, s.state());
        }
        s = fail(s, t0.plusSeconds(9));

        assertEquals(BreakerState.OPEN, s.state());
        assertEquals(t0.plusSeconds(19), s.nextProbeAt(), "first probe after the 10 s cooldown");
        assertInstanceOf(BreakerPolicy.Admission.Wait.class, policy.admit(s, t0.plusSeconds(18)));
        assertInstanceOf(BreakerPolicy.Admission.Probe.class, policy.admit(s, t0.plusSeconds(19)));
    }

    @Test
    void ninetyPercentOfTheLastWindowsCallsFailingOpensIt() {
        BreakerSnapshot s = BreakerSnapshot.closed(t0);
        s = answered(fail(s, t0), t0);
        for (int i = 1; i < 8; i++) {
            s = fail(s, t0.plusSeconds(i));
        }
        assertEquals(BreakerState.CLOSED, s.state(), "8 of 9 failed, but fewer than 10 calls");
        s = fail(s, t0.plusSeconds(10));
        assertEquals(BreakerState.OPEN, s.state(), "9 of 10 failed");
    }

    @Test
    void aFreshWindowStillRemembersThePreviousOne() {
        BreakerSnapshot s = BreakerSnapshot.closed(t0);
        for (int i = 0; i < 50; i++) {
            Instant at = t0.plusMillis(1_000L * i);
            s = i % 2 == 0 ? fail(s, at) : answered(s, at);
        }
        // A new window starts at t0 + 60 s; ten failures right after it are judged with the last 50 calls.
        for (int i = 0; i < 10; i++) {
            s = fail(s, t0.plusSeconds(60).plusMillis(i));
        }
        assertEquals(BreakerState.CLOSED, s.state());
    }

    @Test
    void failuresInAnExpiredWindowDoNotCount() {
        BreakerSnapshot s = BreakerSnapshot.closed(t0);
        for (int i = 0; i < 4; i++) {
            s = fail(s, t0.plusSeconds(i));
        }
        s = fail(s, t0.plusSeconds(61));

        assertEquals(BreakerState.CLOSED, s.state());
        assertEquals(1, s.windowFailures());
    }

    @Test
    void aMisconfiguredS3OpensItAtOnce() {
        BreakerSnapshot s = policy.afterFailure(BreakerSnapshot.closed(t0), t0, false, true, "AccessDenied");

        assertEquals(BreakerState.OPEN, s.state());
        assertEquals("AccessDenied", s.lastCause());
    }

    @Test
    void aFlakyS3ThatFailsHalfTheCallsNeverOpensIt() {
        BreakerSnapshot s = BreakerSnapshot.closed(t0);
        for (int i = 0; i < 10_000; i++) {
            Instant at = t0.plusMillis(100L * i);
            s = i % 2 == 0 ? fail(s, at) : answered(s, at);
            assertEquals(BreakerState.CLOSED, s.state(), "call " + i);
        }
    }

    @Test
    void aRandomlyFlakyS3AtVolumeStaysClosed() {
        Random random = new Random(42);
        BreakerSnapshot s = BreakerSnapshot.closed(t0);
        // 20 calls a second, half of them failing at random, for an hour
        for (int i = 0; i < 72_000; i++) {
            Instant at = t0.plusMillis(50L * i);
            s = random.nextBoolean() ? fail(s, at) : answered(s, at);
            assertEquals(BreakerState.CLOSED, s.state(), "call " + i);
        }
    }

    @Test
    void aSuccessfulProbeClosesIt() {
        BreakerSnapshot open = policy.afterFailure(BreakerSnapshot.closed(t0), t0, false, true, "NoSuchBucket");
        BreakerSnapshot probing = policy.probeStarted(open, t0.plusSeconds(10));
        assertEquals(BreakerState.HALF_OPEN, probing.state());
        assertInstanceOf(
                BreakerPolicy.Admission.Wait.class,
                policy.admit(probing, t0.plusSeconds(11)),
                "nobody else calls S3 while the probe runs");

        BreakerSnapshot closed = policy.afterProbeAnswered(probing, t0.plusSeconds(11));

        assertEquals(BreakerState.CLOSED, closed.state());
        assertEquals(0, closed.windowFailures());
    }

    @Test
    void eachFailedProbeDoublesTheCooldownUpToTheCap() {
        BreakerSnapshot s = policy.afterFailure(BreakerSnapshot.closed(t0), t0, false, true, "AccessDenied");
        Instant now = t0;
        long[] expected = {20, 40, 80, 120, 120};
        for (long seconds : expected) {
            now = s.nextProbeAt();
            s = policy.afterFailure(policy.probeStarted(s, now), now, true, false, "SERVER_ERROR");
            assertEquals(BreakerState.OPEN, s.state());
            assertEquals(Duration.ofSeconds(seconds), s.cooldown());
            assertEquals(now.plusSeconds(seconds), s.nextProbeAt());
        }
        assertEquals(t0, s.openedAt(), "open since the first opening");
    }

    /**
     * The herd after an outage arrives at the probe's moment: a job that finds the probe in flight waits for its
     * answer, due any moment (a probe is one S3 call, answered within seconds): the breaker names no later time, so
     * the job comes back after its shortest hold (DeliverySchedule), not when the probe would be taken as lost,
     * which kept those jobs away 30 s after S3 was back (docs/scale.md, "The herd after an outage").
     */
    @Test
    void aCallerThatFindsTheProbeInFlightWaitsForItsAnswerNotForTheProbeTimeout() {
        BreakerSnapshot open = policy.afterFailure(BreakerSnapshot.closed(t0), t0, false, true, "AccessDenied");
        BreakerSnapshot probing = policy.probeStarted(open, t0.plusSeconds(10));

        var wait = assertInstanceOf(BreakerPolicy.Admission.Wait.class, policy.admit(probing, t0.plusSeconds(11)));
        assertEquals(t0.plusSeconds(11), wait.until(), "not the probe timeout, " + probing.nextProbeAt());
        var late = assertInstanceOf(BreakerPolicy.Admission.Wait.class, policy.admit(probing, t0.plusSeconds(35)));
        assertEquals(t0.plusSeconds(35), late.until());
    }

    @Test
    void aProbeThatNeverReportsIsReplacedAfterTheProbeTimeout() {
        BreakerSnapshot open = policy.afterFailure(BreakerSnapshot.closed(t0), t0, false, true, "AccessDenied");
        BreakerSnapshot probing = policy.probeStarted(open, t0.plusSeconds(10));

        assertInstanceOf(BreakerPolicy.Admission.Wait.class, policy.admit(probing, t0.plusSeconds(39)));
        assertInstanceOf(BreakerPolicy.Admission.Probe.class, policy.admit(probing, t0.plusSeconds(40)));
    }

    @Test
    void lateOutcomesOfCallsStartedBeforeItOpenedChangeNothing() {
        BreakerSnapshot open = policy.afterFailure(BreakerSnapshot.closed(t0), t0, false, true, "AccessDenied");

        assertEquals(open, answered(open, t0.plusSeconds(1)));
        assertEquals(open, fail(open, t0.plusSeconds(1)));
    }
    /** Successes remembered while the window had no failure count in the window they happened in, once. */
    @Test
    void uncountedSuccessesJoinTheWindowTheyFellInAndOlderOnesAreDropped() {
        var uncounted = new UncountedSuccesses(Duration.ofSeconds(60));
        uncounted.add(t0.minusSeconds(200)); // two windows ago: no longer bears on the rate
        uncounted.add(t0.plusSeconds(30)); // the first window
        uncounted.add(t0.plusSeconds(70)); // the second
        uncounted.add(t0.plusSeconds(71));

        BreakerSnapshot counted = policy.withUncounted(BreakerSnapshot.closed(t0), t0.plusSeconds(75), uncounted);

        assertEquals(t0.plusSeconds(60), counted.windowStartedAt());
        assertEquals(2, counted.windowCalls());
        assertEquals(1, counted.previousCalls());
        assertEquals(0, counted.windowFailures() + counted.previousFailures());
        assertEquals(counted, policy.withUncounted(counted, t0.plusSeconds(75), uncounted), "drained: added once");
    }

    @Test
    void uncountedSuccessesDoNotCountIntoAnOpenBreaker() {
        var uncounted = new UncountedSuccesses(Duration.ofSeconds(60));
        uncounted.add(t0);
        BreakerSnapshot open = policy.afterFailure(BreakerSnapshot.closed(t0), t0, false, true, "AccessDenied");

        assertEquals(open, policy.withUncounted(open, t0.plusSeconds(1), uncounted));
        BreakerSnapshot closedAgain = BreakerSnapshot.closed(t0.plusSeconds(2));
        assertEquals(
                closedAgain,
                policy.withUncounted(closedAgain, t0.plusSeconds(2), uncounted),
                "dropped, not kept for later");
    }
}
