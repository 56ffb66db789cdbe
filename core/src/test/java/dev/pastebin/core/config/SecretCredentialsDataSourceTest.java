package dev.pastebin.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.MovingClock;
import io.micronaut.serde.ObjectMapper;
import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * How a connection heals after a password rotation: PostgreSQL's rejection (28P01) is recognised wherever it is
 * in the cause chain, the secret is re-read at most once per interval and by one caller at a time, and the
 * connection is opened once more only when the secret holds something new. The database and the secret are
 * stand-ins here; DatabaseCredentialsRotationIT (read function) rotates the real ones.
 */
class SecretCredentialsDataSourceTest {

    private static final ObjectMapper JSON = ObjectMapper.getDefault();

    private final Database database = new Database("old-password");
    private final Secret secret = new Secret("old-password");
    private final MovingClock clock = new MovingClock(Instant.parse("2025-01-01T00:00:00Z"));
    private final DatabaseSecret databaseSecret = new DatabaseSecret("db-secret", secret, JSON, clock);
    private final SecretCredentialsDataSource dataSource = new SecretCredentialsDataSource(database, databaseSecret);

    @Test
    void connectsWithTheSecretReadAtStartUp() throws Exception {
        assertNotNull(dataSource.getConnection());
        assertEquals(List.of("old-password"), database.attempts);
        assertEquals(1, secret.reads.get());
    }

    @Test
    void aRejectedPasswordIsReReadOnceAndTheConnectionOpenedWithTheNewOne() throws Exception {
        rotate("new-password");
        clock.advance(Duration.ofMinutes(5));

        assertNotNull(dataSource.getConnection());
        assertNotNull(dataSource.getConnection());

        assertEquals(List.of("old-password", "new-password", "new-password"), database.attempts);
        assertEquals(2, secret.reads.get());
    }

    @Test
    void whileTheSecretStillHoldsTheRejectedPasswordItIsReadAtMostOncePerInterval() throws Exception {
        database.password = "new-password"; // the rotation has reached the database, not yet the secret
        clock.advance(Duration.ofSeconds(5));

        SQLException rejected = assertThrows(SQLException.class, dataSource::getConnection);
        assertEquals("28P01", rejected.getSQLState());
        assertEquals(2, secret.reads.get());

        clock.advance(DatabaseSecret.MIN_REREAD_INTERVAL.minusMillis(1));
        assertThrows(SQLException.class, dataSource::getConnection);
        assertEquals(2, secret.reads.get(), "re-read within the interval");

        secret.password = "new-password";
        clock.advance(Duration.ofMillis(1));
        assertNotNull(dataSource.getConnection());
        assertEquals(3, secret.reads.get());
    }

    @Test
    void betweenSetSecretAndFinishSecretThePendingPasswordIsTriedOnceAndKept() throws Exception {
        // A single-user rotation: the database has the new password, AWSCURRENT still the old, AWSPENDING the new.
        database.password = "new-password";
        secret.pendingPassword = "new-password";
        clock.advance(Duration.ofSeconds(5));

        assertNotNull(dataSource.getConnection());
        assertNotNull(dataSource.getConnection());

        assertEquals(List.of("old-password", "new-password", "new-password"), database.attempts);
        assertEquals(2, secret.reads.get());
        assertEquals(1, secret.pendingReads.get());
    }

    @Test
    void aPendingPasswordThatIsAlsoRejectedGivesWayToAwsCurrentAgain() throws Exception {
        database.password = "other-password"; // neither version works (an operator's manual change, say)
        secret.pendingPassword = "new-password";
        clock.advance(Duration.ofSeconds(5));

        assertEquals(
                "28P01",
                assertThrows(SQLException.class, dataSource::getConnection).getSQLState());
        assertEquals(List.of("old-password", "new-password"), database.attempts, "AWSPENDING is tried once");

        database.password = "old-password"; // the rotation failed and the old password is back
        clock.advance(Duration.ofSeconds(5));
        assertNotNull(dataSource.getConnection());
        assertEquals(List.of("old-password", "new-password", "new-password", "old-password"), database.attempts);
    }

    @Test
    void aClockThatWentBackwardsDoesNotBlockTheReRead() throws Exception {
        rotate("new-password");
        clock.advance(Duration.ofHours(-1));

        assertNotNull(dataSource.getConnection());
        assertEquals(2, secret.reads.get());
    }

    @Test
    void otherConnectionFailuresAreNeitherRetriedNorAReasonToReadTheSecret() {
        database.down = true;
        clock.advance(Duration.ofMinutes(5));

        SQLException failure = assertThrows(SQLException.class, dataSource::getConnection);
        assertEquals("08001", failure.getSQLState());
        assertEquals(1, database.attempts.size());
        assertEquals(1, secret.reads.get());
    }

    @Test
    void callersRejectedTogetherReadTheSecretOnce() throws Exception {
        rotate("new-password");
        clock.advance(Duration.ofMinutes(5));
        int callers = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Connection>> connections = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(callers)) {
            for (int i = 0; i < callers; i++) {
                connections.add(pool.submit(() -> {
                    start.await();
                    return dataSource.getConnection();
                }));
            }
            start.countDown();
            for (Future<Connection> connection : connections) {
                assertNotNull(connection.get());
            }
        }
        assertEquals(2, secret.reads.get());
    }

    @Test
    void aSecretThatCannotBeReadLeavesTheRejectionAsTheFailure() {
        rotate("new-password");
        secret.failure = new IllegalStateException("Secrets Manager unreachable");
        clock.advance(Duration.ofMinutes(5));

        SQLException rejected = assertThrows(SQLException.class, dataSource::getConnection);
        assertEquals("28P01", rejected.getSQLState());
        assertSame(secret.failure, rejected.getSuppressed()[0]);
    }

    @Test
    void theRejectionIsRecognisedWhereverItIsInTheCauseChain() {
        var rejection = new SQLException("FATAL: password authentication failed for user \"app\"", "28P01");
        assertTrue(SecretCredentialsDataSource.isInvalidPassword(rejection));
        assertTrue(SecretCredentialsDataSource.isInvalidPassword(new RuntimeException(
                "pool", new SQLException("Connection is not available, request timed out", "08001", rejection))));
        assertFalse(SecretCredentialsDataSource.isInvalidPassword(
                new SQLException("FATAL: no pg_hba.conf entry for host", "28000")));
        assertFalse(SecretCredentialsDataSource.isInvalidPassword(new SQLException("no state")));
    }

    @Test
    void callerSuppliedCredentialsAreRefused() {
        assertThrows(SQLFeatureNotSupportedException.class, () -> dataSource.getConnection("app", "other"));
        assertTrue(database.attempts.isEmpty());
    }

    @Test
    void aSecretThatIsNotJsonFailsWithoutQuotingIt() {
        var failure = assertThrows(
                IllegalStateException.class,
                () -> new DatabaseSecret(
                        "db-secret", holding("{\"username\":\"app\",\"password\":hunter2}"), JSON, clock));
        assertTrue(failure.getMessage().contains("is not JSON with username and password"), failure.getMessage());
        for (Throwable t = failure; t != null; t = t.getCause()) {
            assertFalse(String.valueOf(t.getMessage()).contains("hunter2"), t.getMessage());
        }
    }

    @Test
    void aSecretWithoutAPasswordFailsTheStartUp() {
        var failure = assertThrows(
                IllegalStateException.class,
                () -> new DatabaseSecret("db-secret", holding("{\"username\":\"app\"}"), JSON, clock));
        assertEquals("secret db-secret lacks a username or password (AWSCURRENT)", failure.getMessage());
    }

    private void rotate(String password) {
        database.password = password;
        secret.password = password;
    }

    /** PostgreSQL as far as opening a connection goes: the right password, or 28P01; or down (08001). */
    private static final class Database implements DataSource {
        volatile String password;
        volatile boolean down;
        final List<String> attempts = new ArrayList<>();

        Database(String password) {
            this.password = password;
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            synchronized (attempts) {
                attempts.add(password);
            }
            if (down) {
                throw new SQLException("Connection to 127.0.0.1:5432 refused", "08001");
            }
            if (!"app".equals(username) || !this.password.equals(password)) {
                throw new SQLException("FATAL: password authentication failed for user \"" + username + "\"", "28P01");
            }
            return (Connection) Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        throw new UnsupportedOperationException(method.getName());
                    });
        }

        @Override
        public Connection getConnection() {
            throw new UnsupportedOperationException("always called with credentials");
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }

    /** GetSecretValue on the secret: AWSCURRENT's JSON and AWSPENDING's (when a rotation has one), counted. */
    private static final class Secret implements DatabaseSecret.SecretValues {
        volatile String password;
        volatile String pendingPassword;
        volatile RuntimeException failure;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger pendingReads = new AtomicInteger();

        Secret(String password) {
            this.password = password;
        }

        @Override
        public String current() {
            reads.incrementAndGet();
            if (failure != null) {
                throw failure;
            }
            return json(password);
        }

        @Override
        public Optional<String> pending() {
            pendingReads.incrementAndGet();
            return Optional.ofNullable(pendingPassword).map(Secret::json);
        }

        private static String json(String password) {
            return "{\"engine\":\"postgres\",\"username\":\"app\",\"password\":\"" + password + "\"}";
        }
    }

    /** A secret whose AWSCURRENT value is {@code json}, with no rotation under way. */
    private static DatabaseSecret.SecretValues holding(String json) {
        return new DatabaseSecret.SecretValues() {
            @Override
            public String current() {
                return json;
            }

            @Override
            public Optional<String> pending() {
                return Optional.empty();
            }
        };
    }
}
