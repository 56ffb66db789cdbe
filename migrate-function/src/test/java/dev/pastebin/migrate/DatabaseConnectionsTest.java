package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.config.DatabaseCredentials;
import dev.pastebin.core.lambda.Deadline;
import io.micronaut.configuration.jdbc.hikari.DatasourceConfiguration;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A run past its deadline ends: once its connections are aborted, nothing it does afterwards reaches the database,
 * neither a new connection nor a statement on one it held (the worker thread goes on until it notices; a frozen
 * Lambda environment may even resume it in the next invocation). A driver of the test's own stands in for pgjdbc and
 * records what reached it.
 */
class DatabaseConnectionsTest {

    /** What reached the driver, and a gate the next connect waits at (open unless a test closes it). */
    static final class Recorder {
        final List<String> calls = new CopyOnWriteArrayList<>();
        volatile CountDownLatch connecting = new CountDownLatch(0);
        volatile CountDownLatch entered = new CountDownLatch(1);
    }

    static final Recorder RECORDER = new Recorder();

    /** jdbc:recording: connections that record each call and do nothing else. */
    public static final class RecordingDriver implements Driver {

        @Override
        public Connection connect(String url, Properties info) throws SQLException {
            if (!acceptsURL(url)) {
                return null;
            }
            RECORDER.calls.add("connect");
            RECORDER.entered.countDown();
            try {
                RECORDER.connecting.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return (Connection) Proxy.newProxyInstance(
                    Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getDeclaringClass() != Object.class) {
                            RECORDER.calls.add(method.getName());
                        }
                        return switch (method.getName()) {
                            case "isClosed", "isValid", "getAutoCommit" -> false;
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" ->
                                args[0] != null && System.identityHashCode(proxy) == System.identityHashCode(args[0]);
                            default -> null;
                        };
                    });
        }

        @Override
        public boolean acceptsURL(String url) {
            return url.startsWith("jdbc:recording:");
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
            return new DriverPropertyInfo[0];
        }

        @Override
        public int getMajorVersion() {
            return 1;
        }

        @Override
        public int getMinorVersion() {
            return 0;
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }
    }

    private static final DatabaseCredentials OWNER = new DatabaseCredentials("owner", "secret");

    private DatabaseConnections connections;

    @BeforeEach
    void start() throws SQLException {
        DriverManager.registerDriver(new RecordingDriver());
        RECORDER.calls.clear();
        RECORDER.connecting = new CountDownLatch(0);
        RECORDER.entered = new CountDownLatch(1);
        DatasourceConfiguration datasource = new DatasourceConfiguration("default");
        datasource.setJdbcUrl("jdbc:recording:test");
        datasource.setDriverClassName(RecordingDriver.class.getName());
        connections = new DatabaseConnections(datasource);
    }

    @AfterEach
    void stop() {
        RECORDER.connecting.countDown();
    }

    @Test
    void afterTheAbortNoConnectionIsOpened() {
        connections.abortAll();

        SQLException refused = assertThrows(SQLException.class, () -> connections.open(OWNER));

        assertTrue(refused.getMessage().contains("deadline"), refused.getMessage());
        assertEquals(List.of(), RECORDER.calls, "nothing reached the driver");
        assertThrows(SQLException.class, () -> connections.as(OWNER).getConnection());
        assertEquals(List.of(), RECORDER.calls, "nothing reached the driver");
    }

    @Test
    void aConnectionHeldAtTheAbortIsAbortedAndRunsNothingAfter() throws Exception {
        Connection held = connections.open(OWNER);

        connections.abortAll();

        assertEquals(List.of("connect", "abort"), RECORDER.calls);
        assertThrows(SQLException.class, held::createStatement);
        assertThrows(SQLException.class, () -> held.prepareStatement("SELECT 1"));
        assertEquals(List.of("connect", "abort"), RECORDER.calls, "no statement reached the connection");
        held.close(); // closing what is already aborted is allowed
    }

    /** The abort comes while the driver is still connecting: the connection it then returns is aborted at once. */
    @Test
    void aConnectionStillOpeningAtTheAbortIsAbortedWhenItArrives() throws Exception {
        RECORDER.connecting = new CountDownLatch(1);
        CompletableFuture<Connection> opening = CompletableFuture.supplyAsync(() -> {
            try {
                return connections.open(OWNER);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(RECORDER.entered.await(30, TimeUnit.SECONDS), "the driver is connecting");

        connections.abortAll();
        RECORDER.connecting.countDown();

        var failure = assertThrows(java.util.concurrent.ExecutionException.class, opening::get);
        assertInstanceOf(SQLException.class, failure.getCause().getCause(), failure.toString());
        assertEquals(List.of("connect", "abort"), RECORDER.calls);
    }

    /** The worker the deadline guard gave up on cannot start anything new once the guard answered TimedOut. */
    @Test
    void afterTimedOutTheWorkCannotOpenAConnection() throws Exception {
        CountDownLatch aborted = new CountDownLatch(1);
        CompletableFuture<String> later = new CompletableFuture<>();
        AtomicLong remaining = new AtomicLong(60_000);

        var outcome = DeadlineGuard.run(
                new Deadline(remaining::get, Duration.ofMillis(60_000 - 50)),
                () -> {
                    // the guard also interrupts the worker: the work goes on regardless, as a migration might
                    awaitUninterruptibly(aborted);
                    try (Connection c = connections.open(OWNER)) {
                        later.complete("opened");
                    } catch (SQLException e) {
                        later.complete("refused");
                    }
                    return "done";
                },
                () -> {
                    connections.abortAll();
                    aborted.countDown();
                });

        assertInstanceOf(DeadlineGuard.TimedOut.class, outcome);
        assertEquals("refused", later.get(30, TimeUnit.SECONDS));
        assertEquals(List.of(), RECORDER.calls, "nothing reached the driver");
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // as a worker that does not look at its interrupt
            }
        }
    }
}
