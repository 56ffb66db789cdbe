package dev.pastebin.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class ChaosScheduleTest {

    @Test
    void theFullScheduleHasEveryFaultWithinTheLoadAndTheShortOneStaysShort() {
        ChaosSchedule full = ChaosSchedule.full();
        assertEquals(
                EnumSet.allOf(FaultKind.class),
                EnumSet.copyOf(
                        full.faults().stream().map(ChaosSchedule.Fault::kind).toList()));
        full.faults().forEach(f -> assertTrue(f.at().plus(f.duration()).compareTo(full.load()) <= 0, f.toString()));
        assertTrue(full.createsPerSecond() * full.load().toSeconds() >= 2000, "thousands of pastes");

        ChaosSchedule quick = ChaosSchedule.quick();
        assertTrue(quick.load().compareTo(Duration.ofSeconds(90)) <= 0
                && quick.faults().size() <= 3);
    }

    @Test
    void theRateIsMultipliedDuringABurstOnly() {
        ChaosSchedule quick = ChaosSchedule.quick();
        ChaosSchedule.Fault burst = quick.faults().stream()
                .filter(f -> f.kind() == FaultKind.BURST)
                .findFirst()
                .orElseThrow();
        assertEquals(
                quick.createsPerSecond(), quick.createsPerSecondAt(burst.at().minusMillis(1)));
        assertEquals(quick.createsPerSecond() * quick.burstFactor(), quick.createsPerSecondAt(burst.at()));
        assertEquals(
                quick.createsPerSecond(), quick.createsPerSecondAt(burst.at().plus(burst.duration())));
    }
}
