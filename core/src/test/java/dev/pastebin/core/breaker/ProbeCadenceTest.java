package dev.pastebin.core.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The probe's cadence with the bound defaults (docs/design.md, "Circuit breaker"): a breaker that learns of S3's
 * recovery within a few seconds while jobs are held, at the cost of one PUT per few seconds of outage at most, since
 * only a caller probes and only one probe runs at a time.
 */
class ProbeCadenceTest {

    private static final Instant T0 = Instant.parse("2026-12-07T02:00:00Z");

    private static BreakerProperties defaults() {
        // Only the record's defaults: no "test" environment, no environment variables.
        try (var context = ApplicationContext.builder()
                .deduceEnvironment(false)
                .environmentPropertySource(false)
                .properties(Map.of())
                .start()) {
            return context.getBean(BreakerProperties.class);
        }
    }

    private final BreakerProperties properties = defaults();
    private final BreakerPolicy policy = new BreakerPolicy(properties);

    /** What a stream of callers, one every {@code callerEvery}, makes of an outage that ends at {@code recovery}. */
    private record Run(int probes, Instant closedAt) {}

    private Run callers(Duration callerEvery, Instant recovery, Instant until) {
        BreakerSnapshot s = policy.afterFailure(BreakerSnapshot.closed(T0), T0, false, true, "SERVER_ERROR");
        int probes = 0;
        for (Instant now = T0.plus(callerEvery); !now.isAfter(until); now = now.plus(callerEvery)) {
            if (policy.admit(s, now) instanceof BreakerPolicy.Admission.Probe) {
                probes++;
                BreakerSnapshot probing = policy.probeStarted(s, now);
                s = now.isBefore(recovery)
                        ? policy.afterFailure(probing, now, true, false, "SERVER_ERROR")
                        : policy.afterProbeAnswered(probing, now);
                if (s.state() == BreakerState.CLOSED) {
                    return new Run(probes, now);
                }
            }
        }
        return new Run(probes, Instant.MAX);
    }

    @Test
    void theFirstProbeComesASecondAfterOpeningAndFailedProbesDoubleTheCooldownToAFewSeconds() {
        assertEquals(Duration.ofSeconds(1), properties.cooldown());
        assertEquals(Duration.ofSeconds(4), properties.maxCooldown());
        BreakerSnapshot s = policy.afterFailure(BreakerSnapshot.closed(T0), T0, false, true, "SERVER_ERROR");
        assertEquals(T0.plusSeconds(1), s.nextProbeAt());

        List<Long> cooldowns = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Instant now = s.nextProbeAt();
            s = policy.afterFailure(policy.probeStarted(s, now), now, true, false, "SERVER_ERROR");
            cooldowns.add(Duration.between(now, s.nextProbeAt()).toSeconds());
        }
        assertEquals(List.of(2L, 4L, 4L, 4L, 4L), cooldowns);
    }

    /**
     * While jobs are held by the thousand a caller comes every few milliseconds, so the breaker closes within the cap
     * of any recovery, whenever it comes: 10 ms callers, recoveries every 250 ms over the first two minutes (the
     * cooldown reaches its cap after 7 s).
     */
    @Test
    void withCallersAtHandTheBreakerClosesWithinTheCapOfAnyRecovery() {
        Duration callerEvery = Duration.ofMillis(10);
        Duration latest = Duration.ZERO;
        for (long ms = 0; ms <= 120_000; ms += 250) {
            Instant recovery = T0.plusMillis(ms);
            Run run = callers(callerEvery, recovery, recovery.plus(Duration.ofMinutes(1)));
            Duration delay = Duration.between(recovery, run.closedAt());
            latest = delay.compareTo(latest) > 0 ? delay : latest;
        }
        assertTrue(
                latest.compareTo(properties.maxCooldown().plus(callerEvery)) <= 0,
                "closed at most " + latest + " after a recovery");
    }

    /**
     * The cost of the short cadence: one PUT per cap of outage at most, however many callers (21,600 a day at 4 s),
     * and with callers rarer than the cap, no more probes than callers.
     */
    @Test
    void aDayOfOutageCostsAtMostOneProbePerCapAndNeverMoreThanTheCallers() {
        Instant dayLater = T0.plus(Duration.ofDays(1));
        Run busy = callers(Duration.ofMillis(50), Instant.MAX, dayLater);
        assertTrue(busy.probes() <= 86_400 / 4 + 1, busy.probes() + " probes in a day");
        assertEquals(Instant.MAX, busy.closedAt());

        Run quiet = callers(Duration.ofSeconds(20), Instant.MAX, dayLater);
        assertEquals(86_400 / 20, quiet.probes(), "every caller past the cooldown probes, and no one else");
    }
}
