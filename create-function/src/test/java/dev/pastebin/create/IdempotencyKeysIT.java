package dev.pastebin.create;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.create.IdempotencyKeys;
import dev.pastebin.core.paste.IdempotencyKey;
import dev.pastebin.core.support.RealServices;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/** The key table's statements against the real database, at the interleavings a test can force. */
@RealServices
class IdempotencyKeysIT {

    private final IdempotencyKeys keys = new IdempotencyKeys();

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(
                env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin"),
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /**
     * Another request holds the key, so this request's claim takes nothing; could the holder let the key go (its
     * send failed) or the sweeper delete it before this request looks the holder up, leaving it "neither claimed
     * nor held"? No: the claim's ON CONFLICT DO UPDATE locks the key's row even when its WHERE declines the update,
     * so a DELETE of the key waits for this request's transaction, and the look-up finds the holder.
     */
    @Test
    void aKeyCannotBeLetGoBetweenTheClaimAndTheLookUp() throws Exception {
        IdempotencyKey key = new IdempotencyKey("", "let-go-" + UUID.randomUUID());
        ExecutorService forgetting = Executors.newSingleThreadExecutor();
        try (Connection holder = connect();
                Connection request = connect();
                Connection observer = connect()) {
            assertTrue(keys.claim(holder, key, "0".repeat(64), "holder").isEmpty(), "the holder's claim, committed");
            request.setAutoCommit(false);
            int requestPid = request.unwrap(PGConnection.class).getBackendPID();
            Future<?>[] forget = new Future<?>[1];
            Connection racing = afterTheClaim(request, () -> {
                forget[0] = forgetting.submit(() -> keys.forget(holder, key, "holder"));
                await("the holder's forget waits for this request's lock")
                        .atMost(Duration.ofMinutes(2))
                        .until(() -> waitingBehind(observer, requestPid) == 1);
            });

            var earlier = keys.claim(racing, key, "1".repeat(64), "request");
            assertFalse(forget[0].isDone(), "the forget still waits");
            request.commit();
            forget[0].get(2, TimeUnit.MINUTES);

            assertEquals("holder", earlier.orElseThrow().shortCode(), "the look-up found the holder");
        } finally {
            forgetting.shutdownNow();
        }
    }

    /** Sessions blocked by a lock that the session {@code pid} holds. */
    private static int waitingBehind(Connection observer, int pid) throws Exception {
        try (PreparedStatement waiting = observer.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))")) {
            waiting.setInt(1, pid);
            try (var rows = waiting.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    /** {@code connection}, running {@code meanwhile} once right after the claim statement has run. */
    private static Connection afterTheClaim(Connection connection, Runnable meanwhile) {
        InvocationHandler statements = (proxy, method, args) -> {
            Object result = invoke(connection, method, args);
            if (method.getName().equals("prepareStatement") && IdempotencyKeys.CLAIM.equals(args[0])) {
                PreparedStatement claim = (PreparedStatement) result;
                return Proxy.newProxyInstance(
                        IdempotencyKeysIT.class.getClassLoader(),
                        new Class<?>[] {PreparedStatement.class},
                        (p, m, a) -> {
                            Object r = invoke(claim, m, a);
                            if (m.getName().equals("executeQuery")) {
                                meanwhile.run();
                            }
                            return r;
                        });
            }
            return result;
        };
        return (Connection) Proxy.newProxyInstance(
                IdempotencyKeysIT.class.getClassLoader(), new Class<?>[] {Connection.class}, statements);
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
