package dev.pastebin.chaos;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short chaos schedule in the test command: the whole local system (infra/local/run.sh) behind the fault
 * proxies, a few hundred pastes while S3 answers 5xx, PostgreSQL is stopped and a burst arrives; every check
 * of the full suite ({@code make chaos}) must hold.
 */
class ChaosSuiteIT {

    /** Longer than the integration tests' default limit: the whole system starts, a minute of load, then it settles. */
    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void everyPasteSettlesCorrectlyThroughTheShortSchedule() throws Exception {
        ChaosSchedule schedule = ChaosSchedule.quick();
        ChaosReport report = ChaosSuite.run(schedule, ChaosSuite.Options.fromEnvironment(ChaosSuite.repositoryRoot()));

        String table = report.faultTable() + "\n" + report.table() + "\n" + String.join("\n", report.findings());
        System.out.println(table);
        assertEquals(schedule.faults().size(), report.windows().size(), table);
        // The load waits for a slow system (steady concurrency): on a loaded machine fewer pastes than planned.
        assertTrue(report.figures().pastes() >= 100, "the load really ran\n" + table);
        assertTrue(report.figures().fiveXxInside() > 0, "stopping PostgreSQL is seen by the clients as 503s\n" + table);
        assertTrue(report.passed(), table);
    }
}
