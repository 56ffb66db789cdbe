package dev.pastebin.core.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import io.micronaut.context.ApplicationContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The breaker's state in PostgreSQL, shared by separate application contexts as Lambda's execution
 * environments share it: one probe however many race for it, and the state outlives an environment.
 */
@RealServices
class S3CircuitBreakerIT {

    private final String name = "it-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<ApplicationContext> environments = new ArrayList<>();

    @AfterEach
    void close() {
        environments.forEach(ApplicationContext::close);
    }

    private S3CircuitBreaker environment() {
        return environment("1s");
    }

    private S3CircuitBreaker environment(String cooldown) {
        ApplicationContext context = ApplicationContext.run(
                Map.of(
                        "pastebin.breaker.name",
                        name,
                        "pastebin.breaker.cooldown",
                        cooldown,
                        "pastebin.breaker.max-cooldown",
                        "2m", // above the 60 s cooldowns below
                        "datasources.default.maximum-pool-size",
                        8,
                        "pastebin.metrics.service",
                        "upload"),
                "test");
        environments.add(context);
        return context.getBean(S3CircuitBreaker.class);
    }

    private static S3Exception accessDenied() {
        return (S3Exception) S3Exception.builder()
                .statusCode(403)
                .message("Access Denied")
                .awsErrorDetails(
                        AwsErrorDetails.builder().errorCode("AccessDenied").build())
                .build();
    }

    private static S3Exception serverError() {
        return (S3Exception) S3Exception.builder()
                .statusCode(500)
                .message("InternalError")
                .awsErrorDetails(
                        AwsErrorDetails.builder().errorCode("InternalError").build())
                .build();
    }

    @Test
    void anEnvironmentStartedLaterSeesTheBreakerAnotherOpened() {
        // a cool-down longer than closing one context and starting another can take on a loaded machine
        S3CircuitBreaker first = environment("60s");
        assertThrows(
                S3Exception.class,
                () -> first.call(() -> {
                    throw accessDenied();
                }));
        environments.removeFirst().close();

        S3CircuitBreaker restarted = environment("60s");

        assertTrue(restarted.nextProbe().isPresent());
        AtomicInteger calls = new AtomicInteger();
        assertThrows(CircuitOpenException.class, () -> restarted.call(calls::incrementAndGet));
        assertEquals(0, calls.get(), "S3 is not called while open");
    }

    @Test
    void exactlyOneProbeWhenManyEnvironmentsRaceForIt() throws Exception {
        S3CircuitBreaker a = environment();
        S3CircuitBreaker b = environment();
        assertThrows(
                S3Exception.class,
                () -> a.call(() -> {
                    throw accessDenied();
                }));
        Thread.sleep(1_100); // past the 1 s cooldown: the probe is due

        AtomicInteger s3Calls = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> racers = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 12; i++) {
                S3CircuitBreaker environment = i % 2 == 0 ? a : b;
                racers.add(threads.submit(() -> {
                    start.await();
                    try {
                        return environment.call(() -> {
                            s3Calls.incrementAndGet();
                            sleep(300); // the probe is in flight while the others arrive
                            return true;
                        });
                    } catch (CircuitOpenException e) {
                        return false;
                    }
                }));
            }
            start.countDown();
        }
        long probes = racers.stream().filter(f -> join(f)).count();

        assertEquals(1, probes);
        assertEquals(1, s3Calls.get());
        assertTrue(b.nextProbe().isEmpty(), "the probe's answer closed it for everyone");
    }

    @Test
    void aFailedProbeReopensWithALongerCooldown() throws Exception {
        S3CircuitBreaker breaker = environment();
        assertThrows(
                S3Exception.class,
                () -> breaker.call(() -> {
                    throw accessDenied();
                }));
        Instant firstProbe = breaker.nextProbe().orElseThrow();
        Thread.sleep(1_100);

        assertThrows(
                S3Exception.class,
                () -> breaker.call(() -> {
                    throw serverError();
                }));

        Instant secondProbe = breaker.nextProbe().orElseThrow();
        assertTrue(secondProbe.isAfter(firstProbe.plusMillis(1_900)), firstProbe + " then " + secondProbe);
    }

    /**
     * docs/design.md, "Circuit breaker": an S3 that fails half the calls stays closed. Two environments, 16
     * calls in flight in each, every call failing at random with probability one half: every outcome must be
     * counted, the successes of calls that started before the window's first failure included.
     */
    @Test
    void aHalfFailingS3UnderConcurrencyFromTwoEnvironmentsLeavesItClosed() throws Exception {
        List<S3CircuitBreaker> both = List.of(environment("60s"), environment("60s"));

        Outcomes outcomes = hammer(both, 0.5);

        assertEquals(0, outcomes.held(), outcomes + ": S3 was never held off");
        assertTrue(both.getFirst().nextProbe().isEmpty(), "still closed after " + outcomes);
        assertTrue(outcomes.failures() > outcomes.calls() / 3, "half failed: " + outcomes);
    }

    @Test
    void anS3ThatFailsEveryCallUnderTheSameConcurrencyStillOpensIt() throws Exception {
        List<S3CircuitBreaker> both = List.of(environment("60s"), environment("60s"));

        Outcomes outcomes = hammer(both, 1.0);

        assertTrue(outcomes.held() > 0, outcomes.toString());
        assertTrue(both.getLast().nextProbe().isPresent(), "open for everyone");
        assertTrue(outcomes.calls() < 100, "opened after a handful of calls: " + outcomes);
    }

    private record Outcomes(int calls, int failures, int held) {}

    /** 16 threads per environment, 25 calls each, each S3 call taking 1-20 ms and failing with {@code failureRate}. */
    private static Outcomes hammer(List<S3CircuitBreaker> environments, double failureRate) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger held = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newFixedThreadPool(16 * environments.size())) {
            List<Future<?>> workers = new ArrayList<>();
            for (S3CircuitBreaker environment : environments) {
                for (int t = 0; t < 16; t++) {
                    workers.add(threads.submit(() -> {
                        start.await();
                        for (int i = 0; i < 25; i++) {
                            try {
                                environment.call(() -> {
                                    calls.incrementAndGet();
                                    sleep(ThreadLocalRandom.current().nextLong(1, 21));
                                    if (ThreadLocalRandom.current().nextDouble() < failureRate) {
                                        failures.incrementAndGet();
                                        throw serverError();
                                    }
                                    return true;
                                });
                            } catch (S3Exception failed) {
                                // counted by the breaker
                            } catch (CircuitOpenException open) {
                                held.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
            }
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get();
            }
        }
        return new Outcomes(calls.get(), failures.get(), held.get());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean join(Future<Boolean> future) {
        try {
            return future.get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
