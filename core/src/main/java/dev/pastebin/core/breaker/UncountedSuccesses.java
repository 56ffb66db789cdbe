package dev.pastebin.core.breaker;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The S3 answers this execution environment has not written to the shared window: counting each would be a
 * locked write of the fleet's one row per call, so an answer is remembered here (by tenths of a second) and
 * added to the window with this environment's next write, a failure. Without it, the successes of calls that
 * started before the window's first failure would never count while every failure does, and an S3 failing
 * half the calls would open the breaker. Only the last two windows' worth is kept: older answers no longer
 * bear on the rate.
 */
final class UncountedSuccesses {

    private static final long SLOT_MILLIS = 100;

    private final Duration window;
    private final TreeMap<Long, Integer> bySlot = new TreeMap<>();

    UncountedSuccesses(Duration window) {
        this.window = window;
    }

    synchronized void add(Instant at) {
        long slot = Math.floorDiv(at.toEpochMilli(), SLOT_MILLIS) * SLOT_MILLIS;
        bySlot.merge(slot, 1, Integer::sum);
        bySlot.headMap(at.minus(window.multipliedBy(2)).toEpochMilli()).clear();
    }

    /** Empties the record: how many of its answers fall in the window starting at {@code windowStart}, and in the one before. */
    synchronized Drained drain(Instant windowStart) {
        long current = windowStart.toEpochMilli();
        long previous = windowStart.minus(window).toEpochMilli();
        int inWindow = sum(bySlot.tailMap(current, true));
        int inPrevious = sum(bySlot.subMap(previous, true, current, false));
        bySlot.clear();
        return new Drained(inWindow, inPrevious);
    }

    synchronized void clear() {
        bySlot.clear();
    }

    private static int sum(Map<Long, Integer> slots) {
        return slots.values().stream().mapToInt(Integer::intValue).sum();
    }

    record Drained(int inWindow, int inPrevious) {
    }
}
