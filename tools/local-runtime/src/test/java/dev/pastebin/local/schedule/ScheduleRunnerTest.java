package dev.pastebin.local.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.lambda.InvocationResult;
import dev.pastebin.local.lambda.LambdaFunction;
import dev.pastebin.local.template.FunctionDefinition;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each scheduled run is logged with the function's own answer: a failed run can never pass for a good one. */
class ScheduleRunnerTest {

    private static final FunctionDefinition.ScheduleTrigger DAILY = new FunctionDefinition.ScheduleTrigger(
            "Daily", "rate(1 day)", Optional.of(Duration.ofDays(1)), Optional.empty(), true);

    @Test
    void aRunThatReturnedIsLoggedWithItsResult() throws Exception {
        String line = firstRun(new InvocationResult(
                "r1", "{\"deleted\":3}".getBytes(StandardCharsets.UTF_8), null, Duration.ZERO, false));
        assertTrue(line.startsWith("schedule Sweeper/Daily: returned {\"deleted\":3}; next at "), line);
    }

    @Test
    void aFailedRunIsLoggedAsFailedWithItsErrorDocument() throws Exception {
        String line = firstRun(new InvocationResult(
                "r2",
                "{\"errorType\":\"IllegalStateException\"}".getBytes(StandardCharsets.UTF_8),
                "Unhandled",
                Duration.ZERO,
                false));
        assertTrue(
                line.startsWith("schedule Sweeper/Daily: invocation failed: {\"errorType\":\"IllegalStateException\"}"),
                line);
        assertFalse(line.contains("returned"), line);
    }

    /**
     * A run that lasts several periods does not leave the missed runs to fire back to back afterwards (EventBridge
     * fires on the rate, it never replays missed runs): the next run comes on the next period, and the runs after
     * it keep the rate.
     */
    @Test
    void runsMissedDuringALongRunAreSkippedNotFiredBackToBack() throws Exception {
        long period = 200;
        var starts = new LinkedBlockingQueue<Long>();
        var runs = new AtomicInteger();
        LambdaFunction function = new LambdaFunction() {
            @Override
            public String name() {
                return "Sweeper";
            }

            @Override
            public InvocationResult invoke(byte[] event, String trigger) throws InterruptedException {
                starts.add(System.nanoTime());
                if (runs.incrementAndGet() == 1) {
                    Thread.sleep(5 * period); // a cold start
                }
                return new InvocationResult("r", "{}".getBytes(StandardCharsets.UTF_8), null, Duration.ZERO, false);
            }
        };
        long[] at = new long[4];
        try (var runner = new ScheduleRunner(
                "us-east-1",
                "000000000000",
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
            runner.schedule(function, DAILY, Duration.ofMillis(period));
            for (int i = 0; i < at.length; i++) {
                Long start = starts.poll(30, TimeUnit.SECONDS);
                assertNotNull(start, "run " + (i + 1) + " fired");
                at[i] = start;
            }
        }
        for (int i = 2; i < at.length; i++) {
            long gapMillis = TimeUnit.NANOSECONDS.toMillis(at[i] - at[i - 1]);
            assertTrue(
                    gapMillis >= period / 2,
                    "run " + (i + 1) + " started " + gapMillis + " ms after run " + i + ", not a period (" + period
                            + " ms) later");
        }
    }

    /** Runs the schedule every 50 ms until the first invocation has been logged; returns that line. */
    private static String firstRun(InvocationResult result) throws Exception {
        var invoked = new LinkedBlockingQueue<byte[]>();
        LambdaFunction function = new LambdaFunction() {
            @Override
            public String name() {
                return "Sweeper";
            }

            @Override
            public InvocationResult invoke(byte[] event, String trigger) {
                invoked.add(event);
                return result;
            }
        };
        var log = new ByteArrayOutputStream();
        try (var runner =
                new ScheduleRunner("us-east-1", "000000000000", new PrintStream(log, true, StandardCharsets.UTF_8))) {
            assertEquals(Duration.ofMillis(50), runner.schedule(function, DAILY, Duration.ofMillis(50)));
            assertNotNull(invoked.poll(30, TimeUnit.SECONDS), "the schedule fired");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                for (String line : log.toString(StandardCharsets.UTF_8).split("\n")) {
                    if (line.startsWith("schedule Sweeper/Daily: ") && !line.contains(": every ")) {
                        return line;
                    }
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("no run was logged: " + log.toString(StandardCharsets.UTF_8));
    }
}
