package dev.pastebin.chaos;

import java.time.Duration;
import java.time.Instant;

/** A fault as it really happened: when it started and ended, and what the suite observed doing it. */
public record FaultWindow(ChaosSchedule.Fault fault, Instant start, Instant end, String note) {

    public FaultKind kind() {
        return fault.kind();
    }

    /** Whether [from, to] overlaps the window extended by {@code grace} at its end. */
    public boolean overlaps(Instant from, Instant to, Duration grace) {
        return !to.isBefore(start) && !from.isAfter(end.plus(grace));
    }
}
