package dev.pastebin.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short chaos schedule in the test command: the whole local system (infra/local/run.sh) behind the fault
 * proxies, a few hundred pastes while S3 answers 5xx, PostgreSQL is stopped and a burst arrives. It runs
 * {@link Strictness#CORRECTNESS}: the load goes on until enough pastes were accepted, the system has a generous
 * time to settle, and every correctness check of the full suite ({@code make chaos}) must hold; the timing
 * checks, which only a fast enough machine passes, are in the table without failing the test.
 */
class ChaosSuiteIT {

    /**
     * The system's start (minutes on a busy machine), the load (5 min at most), the budget of the last fault
     * plus the 10 min the mode allows past it to settle, the final reads: well within 30 min.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void everyPasteSettlesCorrectlyThroughTheShortSchedule() throws Exception {
        ChaosSchedule schedule = ChaosSchedule.quick();
        ChaosReport report = ChaosSuite.run(
                schedule,
                ChaosSuite.Options.fromEnvironment(ChaosSuite.repositoryRoot()).withStrictness(Strictness.CORRECTNESS));

        String table = report.faultTable() + "\n" + report.table() + "\n" + String.join("\n", report.findings());
        System.out.println(table);
        assertEquals(schedule.faults().size(), report.windows().size(), table);
        assertTrue(report.figures().pastes() >= Strictness.CORRECTNESS.pastes(), "the load really ran\n" + table);
        assertTrue(
                report.figures().fiveXxByFault().getOrDefault(FaultKind.POSTGRES_STOPPED, 0) > 0,
                "stopping PostgreSQL is seen by the clients as 503s\n" + table);
        assertTrue(report.passed(), table);
    }
}
