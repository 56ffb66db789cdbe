package dev.pastebin.core.breaker;

import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;

/**
 * The breaker's state machine, pure: what a caller may do given the stored snapshot, and the snapshot after
 * an S3 call's result. {@link S3CircuitBreaker} applies it to the shared row under a row lock.
 */
final class BreakerPolicy {

    /** What a caller may do now. */
    sealed interface Admission {
        /** Closed: call S3. */
        record Call() implements Admission {}

        /** The probe is due: the caller that stores HALF_OPEN first is the one probe. */
        record Probe() implements Admission {}

        /**
         * Open, or a probe is in flight: do not call S3 before {@code until} (the next probe; now while a probe is in
         * flight, whose answer is due any moment: how long the caller then waits is the delivery schedule's).
         */
        record Wait(Instant until) implements Admission {}
    }

    /**
     * How many times a window an environment writes the answers it kept ({@link #answersWrittenEvery}): often
     * enough that the row lacks at most a sixth of a window of any environment's answers when a failure is
     * judged, rarely enough that a healthy fleet's writes stay a handful a minute per environment.
     */
    private static final int ANSWER_WRITES_PER_WINDOW = 6;

    private final BreakerProperties properties;

    BreakerPolicy(BreakerProperties properties) {
        this.properties = properties;
    }

    /** An environment writes its kept answers once the oldest is this old (10 s with the 60 s window). */
    Duration answersWrittenEvery() {
        return properties.window().dividedBy(ANSWER_WRITES_PER_WINDOW);
    }

    /** Whether {@code now} still falls in the stored window, so answers can be added to it without rolling it. */
    boolean windowIsCurrent(BreakerSnapshot s, Instant now) {
        return now.isBefore(s.windowStartedAt().plus(properties.window()));
    }

    Admission admit(BreakerSnapshot s, Instant now) {
        if (s.state() == BreakerState.CLOSED) {
            return new Admission.Call();
        }
        if (!now.isBefore(s.nextProbeAt())) {
            return new Admission.Probe();
        }
        if (s.state() == BreakerState.HALF_OPEN) {
            // A probe is in flight: one S3 call, answered within seconds. Wait for its answer (the held job comes
            // back after its shortest hold, DeliverySchedule), not for the probe timeout (the row's nextProbeAt),
            // which only says when a lost probe may be replaced: the jobs that come back at the probe's moment
            // after an outage would otherwise stay away that long with S3 back.
            return new Admission.Wait(now);
        }
        return new Admission.Wait(s.nextProbeAt());
    }

    BreakerSnapshot probeStarted(BreakerSnapshot s, Instant now) {
        return s.with(
                BreakerState.HALF_OPEN, s.openedAt(), now.plus(properties.probeTimeout()), s.cooldown(), s.lastCause());
    }

    /**
     * The probe's S3 answered (the call succeeded, or failed for the request's own reasons): S3 is back. Other
     * answers are not written one by one: they go with the environment's next failure ({@link #withUncounted})
     * or once the oldest is {@link #answersWrittenEvery} old.
     */
    BreakerSnapshot afterProbeAnswered(BreakerSnapshot s, Instant now) {
        return s.state() == BreakerState.HALF_OPEN ? BreakerSnapshot.closed(now) : s;
    }

    /**
     * Adds the answers an environment has not written yet to the window each falls in (the current or the
     * previous one; older ones no longer count). Only a closed breaker counts: when it opened meanwhile, they
     * are dropped.
     */
    BreakerSnapshot withUncounted(BreakerSnapshot s, Instant now, UncountedSuccesses uncounted) {
        if (s.state() != BreakerState.CLOSED) {
            uncounted.clear();
            return s;
        }
        BreakerSnapshot rolled = rolled(s, now);
        UncountedSuccesses.Drained drained = uncounted.drain(rolled.windowStartedAt());
        return rolled.counting(
                rolled.windowStartedAt(),
                rolled.windowCalls() + drained.inWindow(),
                rolled.windowFailures(),
                rolled.previousCalls() + drained.inPrevious(),
                rolled.previousFailures());
    }

    /**
     * S3 failed transiently ({@code opensAtOnce} false) or said it is misconfigured for everyone (true): a
     * failed probe reopens with a longer cooldown; in a closed breaker the failure is counted and may open it.
     */
    BreakerSnapshot afterFailure(BreakerSnapshot s, Instant now, boolean probe, boolean opensAtOnce, String cause) {
        if (probe) {
            if (s.state() != BreakerState.HALF_OPEN) {
                return s;
            }
            Duration longer = s.cooldown().multipliedBy(2);
            return open(
                    s, now, longer.compareTo(properties.maxCooldown()) > 0 ? properties.maxCooldown() : longer, cause);
        }
        if (s.state() != BreakerState.CLOSED) {
            return s;
        }
        BreakerSnapshot rolled = rolled(s, now);
        BreakerSnapshot counted = rolled.counting(
                rolled.windowStartedAt(),
                rolled.windowCalls() + 1,
                rolled.windowFailures() + 1,
                rolled.previousCalls(),
                rolled.previousFailures());
        if (opensAtOnce || tripped(counted, now)) {
            return open(counted, now, properties.cooldown(), cause);
        }
        return counted;
    }

    /**
     * The failure rate over the last window's length, estimated as the current window plus the part of the
     * previous one that still overlaps it: a fresh window never judges a handful of calls on its own.
     */
    private boolean tripped(BreakerSnapshot s, Instant now) {
        double windowMillis = properties.window().toMillis();
        double overlap =
                Math.max(0, 1 - Duration.between(s.windowStartedAt(), now).toMillis() / windowMillis);
        double calls = s.windowCalls() + overlap * s.previousCalls();
        double failures = s.windowFailures() + overlap * s.previousFailures();
        return calls >= properties.minimumCalls() && failures >= properties.failureRate() * calls;
    }

    /** Moves to the window {@code now} falls in; the one before it becomes the previous window. */
    private BreakerSnapshot rolled(BreakerSnapshot s, Instant now) {
        Duration window = properties.window();
        Instant next = s.windowStartedAt().plus(window);
        if (now.isBefore(next)) {
            return s;
        }
        if (now.isBefore(next.plus(window))) {
            return s.counting(next, 0, 0, s.windowCalls(), s.windowFailures());
        }
        return s.counting(now, 0, 0, 0, 0);
    }

    private static BreakerSnapshot open(BreakerSnapshot s, Instant now, Duration cooldown, @Nullable String cause) {
        Instant openedAt = s.openedAt() != null ? s.openedAt() : now;
        return s.with(BreakerState.OPEN, openedAt, now.plus(cooldown), cooldown, cause);
    }
}
