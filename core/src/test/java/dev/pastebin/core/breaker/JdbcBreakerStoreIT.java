package dev.pastebin.core.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.MovingClock;
import dev.pastebin.core.support.RealServices;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.ConnectionOperations;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The answers an environment adds in place to the shared row in PostgreSQL ({@link JdbcBreakerStore#addAnswers}):
 * only to a closed breaker's current window, and never lost to, nor losing, a concurrent locked update.
 */
@RealServices
class JdbcBreakerStoreIT {

    private final String name = "it-" + UUID.randomUUID().toString().substring(0, 8);
    private ApplicationContext context;
    private BreakerStore store;

    @BeforeEach
    void start() {
        context = ApplicationContext.run(
                Map.of(
                        "pastebin.breaker.name",
                        name,
                        "datasources.default.maximum-pool-size",
                        8,
                        "pastebin.metrics.service",
                        "upload"),
                "test");
        store = context.getBean(BreakerStore.class);
    }

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void answersAreAddedToTheClosedBreakersWindowTheyWereReadIn() {
        BreakerSnapshot before = store.read(name);

        assertTrue(store.addAnswers(name, before.windowStartedAt(), 3, 2));

        BreakerSnapshot after = store.read(name);
        assertEquals(before.windowCalls() + 3, after.windowCalls());
        assertEquals(before.previousCalls() + 2, after.previousCalls());
        assertEquals(before.state(), after.state());
        assertEquals(before.windowStartedAt(), after.windowStartedAt());
        assertEquals(before.windowFailures(), after.windowFailures());
        assertEquals(before.previousFailures(), after.previousFailures());
    }

    @Test
    void nothingIsAddedOnceTheWindowHasMovedOnOrTheBreakerOpened() {
        Instant read = store.read(name).windowStartedAt();
        store.update(name, s -> s.counting(read.plusSeconds(60), 1, 1, s.windowCalls(), s.windowFailures()));

        assertFalse(store.addAnswers(name, read, 5, 5), "the window read is no longer the row's");
        assertEquals(1, store.read(name).windowCalls());

        Instant current = store.read(name).windowStartedAt();
        store.update(
                name,
                s -> s.with(
                        BreakerState.OPEN,
                        Instant.now(),
                        Instant.now().plusSeconds(10),
                        Duration.ofSeconds(10),
                        "down"));
        assertFalse(store.addAnswers(name, current, 5, 5), "an open breaker counts nothing");
        assertEquals(1, store.read(name).windowCalls());
    }

    /** The commit that does not wait for the disk is this statement's alone, not the pooled session's. */
    @Test
    void addingAnswersLeavesTheSessionsCommitModeAsItWas() {
        // one connection, so every statement below runs on the session addAnswers used (and no migration, which needs
        // two)
        try (ApplicationContext oneConnection = ApplicationContext.run(
                Map.of(
                        "pastebin.breaker.name",
                        name,
                        "datasources.default.maximum-pool-size",
                        1,
                        "flyway.datasources.default.enabled",
                        false,
                        "pastebin.metrics.service",
                        "upload"),
                "test")) {
            BreakerStore single = oneConnection.getBean(BreakerStore.class);
            @SuppressWarnings("unchecked")
            ConnectionOperations<Connection> connections = oneConnection.getBean(ConnectionOperations.class);
            String before = synchronousCommit(connections);
            boolean ownTransaction = connections.executeWrite(status -> autoCommit(status.getConnection()));
            assertTrue(
                    ownTransaction,
                    "addAnswers's statement is its own transaction: one round trip, the lock held only while it runs");

            assertTrue(single.addAnswers(name, single.read(name).windowStartedAt(), 1, 0));

            assertEquals(before, synchronousCommit(connections));
            assertEquals(1, single.read(name).windowCalls());
        }
    }

    private static boolean autoCommit(Connection connection) {
        try {
            return connection.getAutoCommit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String synchronousCommit(ConnectionOperations<Connection> connections) {
        return connections.executeRead(status -> {
            try (Statement statement = status.getConnection().createStatement();
                    ResultSet result = statement.executeQuery("SHOW synchronous_commit")) {
                result.next();
                return result.getString(1);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** 8 threads, each adding 25 answers in place and 25 failures under the row's lock, all at once. */
    @Test
    void concurrentAdditionsAndLockedUpdatesAllCount() throws Exception {
        Instant window = store.read(name).windowStartedAt();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                workers.add(threads.submit(() -> {
                    start.await();
                    for (int i = 0; i < 25; i++) {
                        assertTrue(store.addAnswers(name, window, 1, 0));
                        store.update(
                                name,
                                s -> s.counting(
                                        s.windowStartedAt(),
                                        s.windowCalls() + 1,
                                        s.windowFailures() + 1,
                                        s.previousCalls(),
                                        s.previousFailures()));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get(2, TimeUnit.MINUTES);
            }
        }

        BreakerSnapshot row = store.read(name);
        assertEquals(400, row.windowCalls(), row.toString());
        assertEquals(200, row.windowFailures(), row.toString());
    }

    /**
     * The unit test's sick environment on the real row: one environment answers 1,000 times over 50 s, another
     * fails 10 times; the breaker stays closed because the healthy answers reached the row.
     */
    @Test
    void oneSickEnvironmentAmongHealthyOnesLeavesTheSharedRowClosed() {
        BreakerSnapshot created = store.read(name);
        MovingClock clock = new MovingClock(created.windowStartedAt());
        BreakerProperties properties = context.getBean(BreakerProperties.class);
        S3CircuitBreaker healthy = new S3CircuitBreaker(
                store,
                properties,
                new FailureClassifier(),
                new CapturedMetrics().metrics("upload"),
                closed -> {},
                clock);
        S3CircuitBreaker sick = new S3CircuitBreaker(
                store,
                properties,
                new FailureClassifier(),
                new CapturedMetrics().metrics("upload"),
                closed -> {},
                clock);

        for (int i = 0; i < 1_000; i++) {
            healthy.call(() -> "stored");
            clock.advance(Duration.ofMillis(50));
        }
        S3Exception serverError = (S3Exception) S3Exception.builder()
                .statusCode(500)
                .message("InternalError")
                .awsErrorDetails(
                        AwsErrorDetails.builder().errorCode("InternalError").build())
                .build();
        for (int i = 0; i < 10; i++) {
            assertThrows(
                    S3Exception.class,
                    () -> sick.call(() -> {
                        throw serverError;
                    }));
        }

        BreakerSnapshot row = store.read(name);
        assertEquals(BreakerState.CLOSED, row.state(), row.toString());
        assertTrue(row.windowCalls() >= 800, "the healthy answers, but for the last 10 s, are counted: " + row);
    }
}
