package dev.pastebin.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StrictnessTest {

    private final ChaosSchedule schedule = ChaosSchedule.quick(); // 60 s of load

    @Test
    void strictLoadRunsForTheSchedulesDurationWhateverItYields() {
        assertFalse(Strictness.STRICT.loadOver(schedule, seconds(59), 1_000, true));
        assertTrue(Strictness.STRICT.loadOver(schedule, seconds(60), 0, false));
        assertEquals(Duration.ZERO, Strictness.STRICT.settleGrace());
    }

    @Test
    void correctnessLoadRunsUntilEnoughPastesAndTheFaultsAreOver() {
        Strictness mode = Strictness.CORRECTNESS;
        assertFalse(mode.loadOver(schedule, seconds(59), 1_000, true), "never before the schedule's duration");
        assertFalse(mode.loadOver(schedule, seconds(60), mode.pastes() - 1, true), "too few pastes");
        assertFalse(mode.loadOver(schedule, seconds(60), mode.pastes(), false), "a fault still running");
        assertTrue(mode.loadOver(schedule, seconds(60), mode.pastes(), true));
    }

    @Test
    void correctnessLoadEndsAtItsCapWhateverItYields() {
        Duration cap = Strictness.CORRECTNESS.loadCap(schedule);
        assertEquals(seconds(60 + 240), cap);
        assertFalse(Strictness.CORRECTNESS.loadOver(schedule, cap.minusMillis(1), 0, false));
        assertTrue(Strictness.CORRECTNESS.loadOver(schedule, cap, 0, false));
    }

    private static Duration seconds(int n) {
        return Duration.ofSeconds(n);
    }
}
