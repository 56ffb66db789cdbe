package dev.pastebin.core.breaker;

import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.support.CapturedMetrics;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What the breaker asks of its shared row (docs/scale.md, "The shared breaker at fleet concurrency"): the
 * row's lock is the one thing every environment queues for, so a call takes it only when its outcome can
 * change the state.
 */
class S3CircuitBreakerTest {

    private static final BreakerProperties DEFAULTS = new BreakerProperties(true, "s3", Duration.ofSeconds(60), 10, 0.9,
            Duration.ofSeconds(10), Duration.ofMinutes(2), Duration.ofSeconds(30), Duration.ofSeconds(15),
            Duration.ofSeconds(5), Duration.ofMinutes(5), Duration.ofHours(24));

    /** The row in memory, counting the calls that would lock it. */
    private static final class CountingStore implements BreakerStore {
        // a window opened a second ago: answers are kept by tenths of a second, so one that falls in the window's
        // first tenth would count for the previous window, and the sums below would depend on the clock
        private BreakerSnapshot row = BreakerSnapshot.closed(Instant.now().minusSeconds(1));
        int lockedUpdates;

        @Override
        public synchronized BreakerSnapshot read(String name) {
            return row;
        }

        @Override
        public synchronized Change update(String name, UnaryOperator<BreakerSnapshot> change) {
            lockedUpdates++;
            BreakerSnapshot before = row;
            row = change.apply(before);
            return new Change(before, row);
        }
    }

    private final CountingStore store = new CountingStore();
    private final S3CircuitBreaker breaker = new S3CircuitBreaker(store, DEFAULTS, new FailureClassifier(),
            new CapturedMetrics().metrics("upload"));

    private static S3Exception serverError() {
        return (S3Exception) S3Exception.builder().statusCode(500).message("InternalError")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("InternalError").build()).build();
    }

    @Test
    void onlyTheProbeThatClosesTheBreakerAnnouncesTheClosing() {
        List<BreakerClosed> heard = new ArrayList<>();
        var announcing = new S3CircuitBreaker(store, DEFAULTS, new FailureClassifier(), new CapturedMetrics().metrics("upload"),
                heard::add, Clock.systemUTC());
        Instant now = Instant.now();

        announcing.call(() -> "an answer while closed");
        assertEquals(List.of(), heard, "no closing while closed");

        store.row = store.row.with(BreakerState.OPEN, now.minusSeconds(20), now.minusSeconds(1), Duration.ofSeconds(10), "down");
        assertThrows(S3Exception.class, () -> announcing.call(() -> { throw serverError(); }));
        assertEquals(BreakerState.OPEN, store.row.state(), "a failed probe reopens");
        assertEquals(List.of(), heard, "a failed probe closes nothing");

        store.row = store.row.with(BreakerState.OPEN, now.minusSeconds(20), now.minusSeconds(1), Duration.ofSeconds(10), "down");
        announcing.call(() -> "the probe's answer");
        assertEquals(BreakerState.CLOSED, store.row.state());
        assertEquals(1, heard.size(), heard.toString());
        assertEquals("s3", heard.getFirst().breaker());
    }

    @Test
    void aListenerThatFailsDoesNotFailTheProbe() {
        var announcing = new S3CircuitBreaker(store, DEFAULTS, new FailureClassifier(), new CapturedMetrics().metrics("upload"),
                closed -> { throw new IllegalStateException("release failed"); }, Clock.systemUTC());
        Instant now = Instant.now();
        store.row = store.row.with(BreakerState.OPEN, now.minusSeconds(20), now.minusSeconds(1), Duration.ofSeconds(10), "down");

        assertEquals("stored", announcing.call(() -> "stored"));
        assertEquals(BreakerState.CLOSED, store.row.state());
    }

    @Test
    void aFlakyS3LocksTheRowOncePerFailureNotOncePerAnswer() {
        for (int i = 0; i < 5; i++) {
            assertThrows(S3Exception.class, () -> breaker.call(() -> { throw serverError(); }));
            for (int j = 0; j < 99; j++) {
                breaker.call(() -> true);
            }
        }

        assertEquals(5, store.lockedUpdates, "one locked update per failure; the answers go with the next one");

        assertThrows(S3Exception.class, () -> breaker.call(() -> { throw serverError(); }));
        assertEquals(6, store.row.windowFailures());
        assertEquals(6 + 5 * 99, store.row.windowCalls(), "every answer counted by the next failure");
        assertEquals(BreakerState.CLOSED, store.row.state(), "6% failures: closed");
    }
}
