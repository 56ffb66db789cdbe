package dev.pastebin.core.breaker;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The S3 answers this execution environment has not written to the shared window: counting each would be a
 * write of the fleet's one row per call, so an answer is remembered here (by tenths of a second) and added to
 * the window with this environment's next failure, or once the oldest is {@link BreakerPolicy#answersWrittenEvery}
 * old. Without it, the successes of calls that started before the window's first failure would never count
 * while every failure does, and an S3 failing half the calls would open the breaker; without the timed write,
 * an environment that never fails would never count, and one sick environment would open the fleet's breaker.
 * Only the last two windows' worth is kept: older answers no longer bear on the rate.
 */
final class UncountedSuccesses {

    private static final long SLOT_MILLIS = 100;

    private final Duration window;
    private final TreeMap<Long, Integer> bySlot = new TreeMap<>();
    private Instant nextWriteTurn = Instant.MIN;

    UncountedSuccesses(Duration window) {
        this.window = window;
    }

    synchronized void add(Instant at) {
        long slot = Math.floorDiv(at.toEpochMilli(), SLOT_MILLIS) * SLOT_MILLIS;
        bySlot.merge(slot, 1, Integer::sum);
        bySlot.headMap(at.minus(window.multipliedBy(2)).toEpochMilli()).clear();
    }

    /**
     * Whether the caller is to write the answers now: one is at least {@code every} old, and no caller was given
     * the turn in the last {@code every}, whether its write succeeded or not (a database that fails or queues the
     * write is not asked again per answer).
     */
    synchronized boolean takeWriteTurn(Instant now, Duration every) {
        if (bySlot.isEmpty() || bySlot.firstKey() > now.minus(every).toEpochMilli() || now.isBefore(nextWriteTurn)) {
            return false;
        }
        nextWriteTurn = now.plus(every);
        return true;
    }

    /** Empties the record: how many of its answers fall in the window starting at {@code windowStart}, and in the one before. */
    synchronized Drained drain(Instant windowStart) {
        long current = windowStart.toEpochMilli();
        long previous = windowStart.minus(window).toEpochMilli();
        int inWindow = sum(bySlot.tailMap(current, true));
        int inPrevious = sum(bySlot.subMap(previous, true, current, false));
        Drained drained = new Drained(inWindow, inPrevious, new TreeMap<>(bySlot));
        bySlot.clear();
        return drained;
    }

    /** Keeps again what {@link #drain} took, when it could not be written. */
    synchronized void restore(Drained drained) {
        drained.slots().forEach((slot, answers) -> bySlot.merge(slot, answers, Integer::sum));
    }

    synchronized void clear() {
        bySlot.clear();
    }

    private static int sum(Map<Long, Integer> slots) {
        return slots.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The answers drained: those counted in the window and the one before, and every slot taken. */
    record Drained(int inWindow, int inPrevious, SortedMap<Long, Integer> slots) {
        boolean counts() {
            return inWindow > 0 || inPrevious > 0;
        }
    }
}
