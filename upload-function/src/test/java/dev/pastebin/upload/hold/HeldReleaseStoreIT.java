package dev.pastebin.upload.hold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.paste.HeldDelivery;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The release's progress on the breaker's row and the held rows it takes, in PostgreSQL ({@link JdbcHeldReleaseStore}):
 * begun only on a closed breaker, leased to one invocation at a time, pages taken oldest first and never twice, and
 * nothing taken once the release is no longer the breaker's. A database of its own: a page is taken from the whole
 * table.
 */
@RealServices
@OwnDatabase("held_release")
class HeldReleaseStoreIT {

    private final String breaker = "rel-" + UUID.randomUUID().toString().substring(0, 8);
    private final Instant closedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
    private ApplicationContext context;
    private HeldReleaseStore store;
    private HeldDeliveryRepository heldDeliveries;
    private PasteRepository pastes;
    private ShortCodes shortCodes;
    private DataSource dataSource;

    @BeforeEach
    void start() throws SQLException {
        context = ApplicationContext.run(Map.of("pastebin.breaker.name", breaker), "test");
        store = context.getBean(HeldReleaseStore.class);
        heldDeliveries = context.getBean(HeldDeliveryRepository.class);
        pastes = context.getBean(PasteRepository.class);
        shortCodes = context.getBean(ShortCodes.class);
        dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
        execute("DELETE FROM pastes");
        execute("INSERT INTO circuit_breakers (name, state) VALUES ('" + breaker + "', 'CLOSED')");
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void aReleaseBeginsOnlyOnAClosedBreakerAndIsReadAlongWithIt() throws SQLException {
        BreakerStore breakers = context.getBean(BreakerStore.class);
        assertNull(breakers.read(breaker).release());

        assertTrue(store.begin(breaker, closedAt, closedAt.plusSeconds(20)));

        assertEquals(
                new BreakerSnapshot.PendingRelease(closedAt, closedAt.plusSeconds(20)),
                breakers.read(breaker).release());
        store.finish(breaker, closedAt);
        assertNull(breakers.read(breaker).release());
        execute("UPDATE circuit_breakers SET state = 'OPEN', next_probe_at = now() WHERE name = '" + breaker + "'");
        assertFalse(store.begin(breaker, closedAt, closedAt.plusSeconds(20)), "opened again meanwhile");
    }

    @Test
    void oneInvocationAtATimeHoldsTheLeaseUntilItYieldsItOrItsTimeIsUp() {
        store.begin(breaker, closedAt, closedAt.plusSeconds(20));

        assertTrue(
                store.lease(breaker, closedAt.plusSeconds(1), closedAt.plusSeconds(30))
                        .isEmpty(),
                "the closing invocation holds it");
        assertEquals(
                closedAt,
                store.lease(breaker, closedAt.plusSeconds(20), closedAt.plusSeconds(50))
                        .orElseThrow(),
                "its holder's time is up");
        store.yieldLease(breaker, closedAt);
        assertEquals(
                closedAt,
                store.lease(breaker, closedAt.plusSeconds(21), closedAt.plusSeconds(51))
                        .orElseThrow(),
                "yielded");
        store.finish(breaker, closedAt);
        assertTrue(
                store.lease(breaker, closedAt.plusSeconds(60), closedAt.plusSeconds(90))
                        .isEmpty(),
                "finished");
    }

    @Test
    void pagesAreTakenOldestHoldFirstEachOnceAndThePositionMovesPastThem() throws SQLException {
        for (int i = 0; i < 5; i++) {
            held(i, "h" + i, Instant.now().plusSeconds(300));
        }
        Paste over = held(9, "h-over", Instant.now().minusSeconds(1));
        store.begin(breaker, closedAt, closedAt.plusSeconds(20));

        var first = store.take(breaker, closedAt, Instant.now(), 3).orElseThrow();
        var second = store.take(breaker, closedAt, Instant.now(), 3).orElseThrow();
        var none = store.take(breaker, closedAt, Instant.now(), 3).orElseThrow();

        assertEquals(0, first.firstPosition());
        assertEquals(List.of("h0", "h1", "h2"), handles(first));
        assertEquals(3, second.firstPosition());
        assertEquals(List.of("h3", "h4"), handles(second), "each once; a hold already over is not taken");
        assertEquals(5, none.firstPosition());
        assertEquals(List.of(), none.held());
        assertEquals(0, heldDeliveries.countHeldDeliveries(Instant.now()), "their handles are forgotten");
        assertEquals("h-over", handleOf(over), "left alone");
    }

    @Test
    void nothingIsTakenOnceTheReleaseIsNoLongerTheBreakers() throws SQLException {
        held(0, "h0", Instant.now().plusSeconds(300));
        store.begin(breaker, closedAt, closedAt.plusSeconds(20));

        assertTrue(
                store.take(breaker, closedAt.minusSeconds(30), Instant.now(), 3).isEmpty(), "an earlier close's");
        execute("UPDATE circuit_breakers SET state = 'OPEN', next_probe_at = now() WHERE name = '" + breaker + "'");
        assertTrue(store.take(breaker, closedAt, Instant.now(), 3).isEmpty(), "opened again");
        assertEquals(1, heldDeliveries.countHeldDeliveries(Instant.now()), "still held, for the next close");
    }

    @Test
    void aRowSomeoneHoldsLockedIsLeftForALaterPageInsteadOfWaitedFor() throws SQLException {
        Paste locked = held(0, "h-locked", Instant.now().plusSeconds(300));
        held(1, "h-free", Instant.now().plusSeconds(300));
        store.begin(breaker, closedAt, closedAt.plusSeconds(20));

        try (Connection holder = dataSource.getConnection();
                var lock = holder.prepareStatement("SELECT 1 FROM pastes WHERE short_code = ? FOR UPDATE")) {
            holder.setAutoCommit(false);
            lock.setString(1, locked.shortCode());
            lock.executeQuery().close();

            assertEquals(
                    List.of("h-free"),
                    handles(store.take(breaker, closedAt, Instant.now(), 3).orElseThrow()));
            holder.rollback();
        }
        assertEquals(
                List.of("h-locked"),
                handles(store.take(breaker, closedAt, Instant.now(), 3).orElseThrow()));
    }

    @Test
    void aRestoredDeliveryIsNotedAgainUnlessHeldAgainOrStoredSince() throws SQLException {
        Instant until = Instant.now().plusSeconds(300);
        Paste restored = held(0, "h0", until);
        Paste heldAgain = held(1, "h1", until);
        Paste stored = held(2, "h2", until);
        store.begin(breaker, closedAt, closedAt.plusSeconds(20));
        var taken = store.take(breaker, closedAt, Instant.now(), 3).orElseThrow();
        heldDeliveries.recordHeldDelivery(heldAgain.shortCode(), "h1-later", until, null);
        pastes.markProcessed(stored.shortCode(), "s3://bucket/pastes/" + stored.shortCode());

        store.restore(taken.held());

        assertEquals("h0", handleOf(restored));
        assertEquals("h1-later", handleOf(heldAgain));
        assertNull(handleOf(stored));
    }

    /** A paste held since {@code order} minutes before the others, its message noted as {@code handle}. */
    private Paste held(int order, String handle, Instant until) {
        Paste paste = pastes.save(TestPastes.inProgress(shortCodes.next(), null, "a".repeat(64), 1));
        pastes.recordFirstHold(paste.shortCode(), Instant.now().minusSeconds(3600 - order * 60L));
        heldDeliveries.recordHeldDelivery(paste.shortCode(), handle, until, null);
        return paste;
    }

    private static List<String> handles(HeldReleaseStore.Taken taken) {
        return taken.held().stream().map(HeldDelivery::heldReceiptHandle).toList();
    }

    private String handleOf(Paste paste) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                var query =
                        connection.prepareStatement("SELECT held_receipt_handle FROM pastes WHERE short_code = ?")) {
            query.setString(1, paste.shortCode());
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
