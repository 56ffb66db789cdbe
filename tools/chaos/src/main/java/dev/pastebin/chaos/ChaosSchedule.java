package dev.pastebin.chaos;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/**
 * How long and how hard the suite drives the system, and when each fault starts and for how long. The full
 * schedule is {@code make chaos}; the short one runs in the test command. Both run the same code.
 *
 * @param createsPerSecond steady rate of creates (each followed by a read of an earlier paste)
 * @param burstFactor      rate multiplier during a {@link FaultKind#BURST} window
 * @param maxInFlight      requests in flight at most (the steady concurrency)
 * @param load             how long pastes are created
 */
public record ChaosSchedule(
        String name, double createsPerSecond, int burstFactor, int maxInFlight, Duration load, List<Fault> faults) {

    /** One fault: its kind, when it starts (from the start of the load) and how long it lasts. */
    public record Fault(FaultKind kind, Duration at, Duration duration) {}

    public ChaosSchedule {
        faults = faults.stream().sorted(Comparator.comparing(Fault::at)).toList();
    }

    /** {@code make chaos}: thousands of pastes, every fault of the list, about 15 minutes on a 2-core machine. */
    public static ChaosSchedule full() {
        return new ChaosSchedule(
                "full",
                5,
                5,
                24,
                Duration.ofSeconds(560),
                List.of(
                        fault(FaultKind.S3_ERRORS, 30, 10),
                        fault(FaultKind.POSTGRES_STOPPED, 60, 10),
                        fault(FaultKind.UPLOAD_KILLED, 90, 0),
                        fault(FaultKind.SQS_UNAVAILABLE, 110, 10),
                        fault(FaultKind.S3_ERRORS, 140, 60),
                        fault(FaultKind.S3_THROTTLING, 230, 60),
                        fault(FaultKind.BURST, 320, 30),
                        fault(FaultKind.S3_DOWN, 380, 180)));
    }

    /** In the test command: a few hundred pastes, three faults, under three minutes. */
    public static ChaosSchedule quick() {
        return new ChaosSchedule(
                "short",
                4,
                4,
                16,
                Duration.ofSeconds(60),
                List.of(
                        fault(FaultKind.S3_ERRORS, 10, 10),
                        fault(FaultKind.POSTGRES_STOPPED, 28, 10),
                        fault(FaultKind.BURST, 45, 8)));
    }

    public static ChaosSchedule named(String name) {
        return switch (name) {
            case "full" -> full();
            case "short" -> quick();
            default -> throw new IllegalArgumentException("no schedule named " + name + " (full or short)");
        };
    }

    /** The create rate at a moment of the load. */
    public double createsPerSecondAt(Duration sinceStart) {
        boolean burst = faults.stream()
                .anyMatch(f -> f.kind() == FaultKind.BURST
                        && sinceStart.compareTo(f.at()) >= 0
                        && sinceStart.compareTo(f.at().plus(f.duration())) < 0);
        return burst ? createsPerSecond * burstFactor : createsPerSecond;
    }

    private static Fault fault(FaultKind kind, int atSeconds, int seconds) {
        return new Fault(kind, Duration.ofSeconds(atSeconds), Duration.ofSeconds(seconds));
    }
}
