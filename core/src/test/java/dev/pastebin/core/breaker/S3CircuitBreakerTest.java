package dev.pastebin.core.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.InMemoryBreakerStore;
import dev.pastebin.core.support.MovingClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What the breaker asks of its shared row (docs/scale.md, "The shared breaker at fleet concurrency"): the
 * row's lock is the one thing every environment queues for, so a call takes it only when its outcome can
 * change the state, and an environment writes its answers at most once per sixth of a window; yet every
 * environment's answers count (docs/design.md, "Circuit breaker").
 */
class S3CircuitBreakerTest {

    private static final BreakerProperties DEFAULTS = new BreakerProperties(
            true,
            "s3",
            Duration.ofSeconds(60),
            10,
            0.9,
            Duration.ofSeconds(10),
            Duration.ofMinutes(2),
            Duration.ofSeconds(30));

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
    private final S3CircuitBreaker breaker =
            new S3CircuitBreaker(store, DEFAULTS, new FailureClassifier(), new CapturedMetrics().metrics("upload"));

    private static S3Exception serverError() {
        return (S3Exception) S3Exception.builder()
                .statusCode(500)
                .message("InternalError")
                .awsErrorDetails(
                        AwsErrorDetails.builder().errorCode("InternalError").build())
                .build();
    }

    private static S3Exception accessDenied() {
        return (S3Exception) S3Exception.builder()
                .statusCode(403)
                .message("Access Denied")
                .awsErrorDetails(
                        AwsErrorDetails.builder().errorCode("AccessDenied").build())
                .build();
    }

    @Test
    void onlyTheProbeThatClosesTheBreakerAnnouncesTheClosing() {
        List<BreakerClosed> heard = new ArrayList<>();
        var announcing = new S3CircuitBreaker(
                store,
                DEFAULTS,
                new FailureClassifier(),
                new CapturedMetrics().metrics("upload"),
                heard::add,
                Clock.systemUTC());
        Instant now = Instant.now();

        announcing.call(() -> "an answer while closed");
        assertEquals(List.of(), heard, "no closing while closed");

        store.row = store.row.with(
                BreakerState.OPEN, now.minusSeconds(20), now.minusSeconds(1), Duration.ofSeconds(10), "down");
        assertThrows(
                S3Exception.class,
                () -> announcing.call(() -> {
                    throw serverError();
                }));
        assertEquals(BreakerState.OPEN, store.row.state(), "a failed probe reopens");
        assertEquals(List.of(), heard, "a failed probe closes nothing");

        store.row = store.row.with(
                BreakerState.OPEN, now.minusSeconds(20), now.minusSeconds(1), Duration.ofSeconds(10), "down");
        announcing.call(() -> "the probe's answer");
        assertEquals(BreakerState.CLOSED, store.row.state());
        assertEquals(1, heard.size(), heard.toString());
        assertEquals("s3", heard.getFirst().breaker());
    }

    @Test
    void everyTransitionIsPublishedInTheCallThatMadeIt() {
        Instant t0 = Instant.parse("2026-11-23T10:00:00Z");
        MovingClock clock = new MovingClock(t0);
        InMemoryBreakerStore shared = new InMemoryBreakerStore(clock);
        List<BreakerTransition> published = new ArrayList<>();
        var publishing =
                new S3CircuitBreaker(shared, DEFAULTS, new FailureClassifier(), published::add, closed -> {}, clock);

        assertThrows(
                S3Exception.class,
                () -> publishing.call(() -> {
                    throw accessDenied();
                }));
        assertEquals(1, published.size(), published.toString());
        BreakerTransition opened = published.getFirst();
        assertEquals(BreakerState.CLOSED, opened.from());
        assertEquals(BreakerState.OPEN, opened.to());
        assertTrue(opened.cause().contains("AccessDenied"), opened.cause());
        assertEquals(Duration.ofSeconds(10), opened.cooldown());
        assertEquals(t0.plusSeconds(10), opened.nextProbeAt());
        assertEquals(null, opened.openFor());

        clock.advance(Duration.ofSeconds(11));
        publishing.call(() -> "the probe's answer");

        assertEquals(3, published.size(), "the probe starting and its answer closing, in the probe's call");
        BreakerTransition probing = published.get(1);
        assertEquals(BreakerState.HALF_OPEN, probing.to());
        assertEquals(null, probing.cooldown());
        assertEquals(t0.plusSeconds(41), probing.nextProbeAt(), "a silent probe is lost after 30 s");
        BreakerTransition closing = published.get(2);
        assertEquals(BreakerState.HALF_OPEN, closing.from());
        assertEquals(BreakerState.CLOSED, closing.to());
        assertEquals("probe succeeded", closing.cause());
        assertEquals(null, closing.nextProbeAt());
        assertEquals(Duration.ofSeconds(11), closing.openFor());
        assertEquals(t0.plusSeconds(11), closing.at());
    }

    @Test
    void aListenerThatFailsDoesNotFailTheProbe() {
        var announcing = new S3CircuitBreaker(
                store,
                DEFAULTS,
                new FailureClassifier(),
                new CapturedMetrics().metrics("upload"),
                closed -> {
                    throw new IllegalStateException("release failed");
                },
                Clock.systemUTC());
        Instant now = Instant.now();
        store.row = store.row.with(
                BreakerState.OPEN, now.minusSeconds(20), now.minusSeconds(1), Duration.ofSeconds(10), "down");

        assertEquals("stored", announcing.call(() -> "stored"));
        assertEquals(BreakerState.CLOSED, store.row.state());
    }

    @Test
    void aFlakyS3LocksTheRowOncePerFailureNotOncePerAnswer() {
        for (int i = 0; i < 5; i++) {
            assertThrows(
                    S3Exception.class,
                    () -> breaker.call(() -> {
                        throw serverError();
                    }));
            for (int j = 0; j < 99; j++) {
                breaker.call(() -> true);
            }
        }

        assertEquals(5, store.lockedUpdates, "one locked update per failure; the answers go with the next one");

        assertThrows(
                S3Exception.class,
                () -> breaker.call(() -> {
                    throw serverError();
                }));
        assertEquals(6, store.row.windowFailures());
        assertEquals(6 + 5 * 99, store.row.windowCalls(), "every answer counted by the next failure");
        assertEquals(BreakerState.CLOSED, store.row.state(), "6% failures: closed");
    }

    private static S3CircuitBreaker environment(BreakerStore shared, Clock clock) {
        return new S3CircuitBreaker(
                shared,
                DEFAULTS,
                new FailureClassifier(),
                new CapturedMetrics().metrics("upload"),
                closed -> {},
                clock);
    }

    /**
     * One sick environment (a broken connection pool, an AZ's route to S3) among healthy ones: the fleet's rate
     * is 1 %, and the fleet's breaker must judge it from every environment's answers, not from the failing
     * environment's alone, or it opens for everyone and flaps. The healthy environment still writes its answers
     * at most once per 10 s (a sixth of the window), never once per answer.
     */
    @Test
    void oneSickEnvironmentAmongHealthyOnesLeavesTheFleetsBreakerClosed() {
        MovingClock clock = new MovingClock(Instant.parse("2026-11-27T10:00:00Z"));
        InMemoryBreakerStore shared = new InMemoryBreakerStore(clock);
        S3CircuitBreaker healthy = environment(shared, clock);
        S3CircuitBreaker sick = environment(shared, clock);

        for (int i = 0; i < 1_000; i++) { // 50 s of answers, one every 50 ms
            healthy.call(() -> "stored");
            clock.advance(Duration.ofMillis(50));
        }
        int healthyWrites = shared.writes();
        for (int i = 0; i < 10; i++) {
            assertThrows(
                    S3Exception.class,
                    () -> sick.call(() -> {
                        throw serverError();
                    }));
        }

        BreakerSnapshot row = shared.read("s3");
        assertEquals(
                BreakerState.CLOSED, row.state(), "10 failures among 1,010 calls opened the fleet's breaker: " + row);
        assertTrue(healthyWrites <= 5, healthyWrites + " writes for 50 s of answers: at most one per 10 s");
        assertTrue(
                row.windowCalls() >= 800,
                "the healthy environment's answers, but for the last 10 s, are counted: " + row);
    }

    @Test
    void answersKeptAcrossAQuietWindowsEndGoEachToTheWindowTheyFellIn() {
        Instant t0 = Instant.parse("2026-11-27T10:00:00Z");
        MovingClock clock = new MovingClock(t0);
        InMemoryBreakerStore shared = new InMemoryBreakerStore(clock);
        S3CircuitBreaker healthy = environment(shared, clock);
        shared.read("s3"); // the row's window starts at t0, and no failure moves it on

        clock.advance(Duration.ofSeconds(55));
        healthy.call(() -> "stored");
        assertEquals(0, shared.writes(), "kept: the answer is not 10 s old yet");
        clock.advance(Duration.ofSeconds(11));
        healthy.call(() -> "stored");

        assertEquals(1, shared.writes());
        BreakerSnapshot row = shared.read("s3");
        assertEquals(t0.plusSeconds(60), row.windowStartedAt(), "the write rolled the window: " + row);
        assertEquals(1, row.windowCalls(), "the answer at 66 s: " + row);
        assertEquals(1, row.previousCalls(), "the answer at 55 s: " + row);
    }

    @Test
    void aDatabaseErrorWritingAnswersDoesNotFailTheCallAndTheAnswersWaitForTheNextWrite() {
        Instant t0 = Instant.parse("2026-11-27T10:00:00Z");
        MovingClock clock = new MovingClock(t0);
        InMemoryBreakerStore row = new InMemoryBreakerStore(clock);
        int[] addAttempts = {0};
        BreakerStore failingAdds = new BreakerStore() {
            @Override
            public BreakerSnapshot read(String name) {
                return row.read(name);
            }

            @Override
            public Change update(String name, UnaryOperator<BreakerSnapshot> change) {
                return row.update(name, change);
            }

            @Override
            public boolean addAnswers(String name, Instant windowStartedAt, int windowCalls, int previousCalls) {
                addAttempts[0]++;
                throw new IllegalStateException("lock timeout");
            }
        };
        S3CircuitBreaker environment = environment(failingAdds, clock);
        row.read("s3");

        for (int i = 0; i < 12; i++) { // one answer a second: the 11th is the first with an answer 10 s old
            assertEquals("stored", environment.call(() -> "stored"));
            clock.advance(Duration.ofSeconds(1));
        }
        assertEquals(1, addAttempts[0], "tried once, not again before another 10 s");
        assertThrows(
                S3Exception.class,
                () -> environment.call(() -> {
                    throw serverError();
                }));

        assertEquals(13, row.read("s3").windowCalls(), "the 12 answers went with the failure");
    }

    @Test
    void aCallerLearnsFromTheRowItReadWhetherTheBreakerRefusesItWithoutTouchingTheRow() {
        Instant now = Instant.now();
        BreakerSnapshot open = new BreakerSnapshot(
                BreakerState.OPEN, now, 0, 0, 0, 0, now, now.plusSeconds(3), Duration.ofSeconds(4), "500", null);
        BreakerSnapshot probeDue = new BreakerSnapshot(
                BreakerState.OPEN, now, 0, 0, 0, 0, now, now.minusSeconds(1), Duration.ofSeconds(4), "500", null);

        assertEquals(
                now.plusSeconds(3), breaker.refusal(open).orElseThrow().nextProbeAt(), "held until the next probe");
        assertTrue(breaker.refusal(probeDue).isEmpty(), "the election decides who probes");
        assertTrue(breaker.refusal(BreakerSnapshot.closed(now)).isEmpty());
        assertTrue(breaker.refusal(null).isEmpty(), "no row read: the call decides");
        assertEquals(0, store.lockedUpdates);
    }
}
