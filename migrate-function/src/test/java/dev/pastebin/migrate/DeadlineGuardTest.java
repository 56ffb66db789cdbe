package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.lambda.Deadline;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DeadlineGuardTest {

    @Test
    void workThatFinishesGivesItsValue() {
        var outcome = DeadlineGuard.run(Deadline.none(), () -> "8", () -> {});
        assertEquals(new DeadlineGuard.Done<>("8"), outcome);
    }

    @Test
    void workThatThrowsGivesItsFailure() {
        var failure = new IllegalStateException("no");
        var outcome = DeadlineGuard.run(
                Deadline.none(),
                () -> {
                    throw failure;
                },
                () -> {});
        assertEquals(new DeadlineGuard.Failed<String>(failure), outcome);
    }

    @Test
    void noTimeLeftBeyondTheMarginFailsWithoutStartingTheWork() {
        AtomicBoolean started = new AtomicBoolean();
        var outcome = DeadlineGuard.run(
                new Deadline(() -> 10_000, Duration.ofSeconds(30)),
                () -> {
                    started.set(true);
                    return "8";
                },
                () -> {});
        assertInstanceOf(DeadlineGuard.TimedOut.class, outcome);
        assertTrue(!started.get());
    }

    /** The work waits for a latch nobody opens until the guard has given up and called onTimeout. */
    @Test
    void workStillRunningAtTheMarginIsAbortedAndTimesOut() {
        CountDownLatch aborted = new CountDownLatch(1);
        AtomicLong remaining = new AtomicLong(60_000);
        var outcome = DeadlineGuard.run(
                // 50 ms past the margin at the start; the work never finishes on its own
                new Deadline(remaining::get, Duration.ofMillis(60_000 - 50)),
                () -> {
                    aborted.await();
                    return "never";
                },
                aborted::countDown);
        assertInstanceOf(DeadlineGuard.TimedOut.class, outcome);
        assertEquals(0, aborted.getCount(), "onTimeout ran");
    }
}
