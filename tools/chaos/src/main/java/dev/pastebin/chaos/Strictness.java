package dev.pastebin.chaos;

import java.time.Duration;

/**
 * Which checks fail a run, and how its load and settling end. Correctness checks (nothing lost, stuck, FAILED
 * or read back with other bytes, every 5xx the documented 503, no unexpected answer, queues empty) fail a run
 * in both modes; the timing checks hold only on a machine fast enough for the schedule's budget: no paste
 * terminal after it ({@code late}) and no 503 outside a planned fault window (a cold function on a loaded
 * machine may wait longer than its pool's connection timeout and answer the documented 503).
 */
public enum Strictness {

    /**
     * {@code make chaos}, the measurement: the load runs for the schedule's duration, rows still in progress
     * when the budget ends are stuck, and the timing checks fail the run too.
     */
    STRICT("strict: timing checks fail the run", 0, Duration.ZERO, Duration.ZERO),

    /**
     * The test command ({@code ChaosSuiteIT}) on a busy machine: the load runs until enough pastes were
     * accepted and every fault is over (for 4 minutes more than the schedule's duration at most), the system
     * gets 10 minutes past the budget to settle, and the timing checks are reported without failing the run.
     */
    CORRECTNESS("correctness: timing checks reported, not failing", 100, Duration.ofMinutes(4), Duration.ofMinutes(10));

    private final String label;
    private final int pastes;
    private final Duration extraLoad;
    private final Duration settleGrace;

    Strictness(String label, int pastes, Duration extraLoad, Duration settleGrace) {
        this.label = label;
        this.pastes = pastes;
        this.extraLoad = extraLoad;
        this.settleGrace = settleGrace;
    }

    /** What the report's table header says of the mode. */
    public String label() {
        return label;
    }

    /** Pastes the load waits for (when the machine allows them within its cap). */
    public int pastes() {
        return pastes;
    }

    public boolean timingChecksFail() {
        return this == STRICT;
    }

    /** How long past the budget's end the suite waits for every row to leave IN_PROGRESS and the queues to empty. */
    public Duration settleGrace() {
        return settleGrace;
    }

    /** The longest the load runs: the schedule's duration, plus what this mode allows to reach its pastes. */
    public Duration loadCap(ChaosSchedule schedule) {
        return schedule.load().plus(extraLoad);
    }

    /**
     * Whether the load is over {@code elapsed} into it: never before the schedule's duration, always at the cap,
     * in between once {@link #pastes()} were accepted and every fault is over.
     */
    public boolean loadOver(ChaosSchedule schedule, Duration elapsed, int accepted, boolean faultsOver) {
        if (elapsed.compareTo(schedule.load()) < 0) {
            return false;
        }
        return elapsed.compareTo(loadCap(schedule)) >= 0 || (accepted >= pastes && faultsOver);
    }
}
