package dev.pastebin.local.schedule;

import dev.pastebin.local.lambda.InvocationResult;
import dev.pastebin.local.lambda.LambdaFunction;
import dev.pastebin.local.template.FunctionDefinition;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each scheduled run is logged with the function's own answer: a failed run can never pass for a good one. */
class ScheduleRunnerTest {

    private static final FunctionDefinition.ScheduleTrigger DAILY =
            new FunctionDefinition.ScheduleTrigger("Daily", "rate(1 day)", Optional.of(Duration.ofDays(1)), Optional.empty(), true);

    @Test
    void aRunThatReturnedIsLoggedWithItsResult() throws Exception {
        String line = firstRun(new InvocationResult("r1", "{\"deleted\":3}".getBytes(StandardCharsets.UTF_8), null, Duration.ZERO, false));
        assertTrue(line.startsWith("schedule Sweeper/Daily: returned {\"deleted\":3}; next at "), line);
    }

    @Test
    void aFailedRunIsLoggedAsFailedWithItsErrorDocument() throws Exception {
        String line = firstRun(new InvocationResult("r2", "{\"errorType\":\"IllegalStateException\"}".getBytes(StandardCharsets.UTF_8),
                "Unhandled", Duration.ZERO, false));
        assertTrue(line.startsWith("schedule Sweeper/Daily: invocation failed: {\"errorType\":\"IllegalStateException\"}"), line);
        assertFalse(line.contains("returned"), line);
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
        try (var runner = new ScheduleRunner("us-east-1", "000000000000", new PrintStream(log, true, StandardCharsets.UTF_8))) {
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
