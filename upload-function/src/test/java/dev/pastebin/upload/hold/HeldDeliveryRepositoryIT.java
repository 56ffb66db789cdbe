package dev.pastebin.upload.hold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** The notes of a held delivery on its paste's row: one statement each, only while the paste can still be stored. */
@RealServices
@MicronautTest(transactional = false)
class HeldDeliveryRepositoryIT {

    @Inject
    PasteRepository repository;

    @Inject
    ShortCodes shortCodes;

    @Inject
    HeldDeliveryRepository heldDeliveries;

    @Inject
    DataSource dataSource;

    private Paste newPaste() {
        return repository.save(TestPastes.inProgress(shortCodes.next(), null, "a".repeat(64), 42));
    }

    private Paste reload(Paste paste) {
        return repository.findById(paste.shortCode()).orElseThrow();
    }

    /** Noted only while IN_PROGRESS (a later hold replaces it), forgotten when the paste leaves it. */
    @Test
    void aHeldDeliveryIsNotedWhileInProgressAndForgottenWhenThePasteLeavesIt() throws SQLException {
        Instant until = Instant.now().plusSeconds(300);
        Paste processed = newPaste();
        Paste failed = newPaste();
        assertEquals(1, heldDeliveries.recordHeldDelivery(processed.shortCode(), "handle-1", until, null));
        assertEquals(
                1,
                heldDeliveries.recordHeldDelivery(processed.shortCode(), "handle-2", until, null),
                "a later hold replaces it");
        assertEquals("handle-2", heldHandle(processed));
        assertEquals(1, heldDeliveries.recordHeldDelivery(failed.shortCode(), "handle-3", until, null));

        repository.markProcessed(processed.shortCode(), "s3://bucket/pastes/" + processed.shortCode());
        repository.markFailed(failed.shortCode(), "permanent");

        assertNull(heldHandle(processed));
        assertNull(heldHandle(failed));
        assertEquals(
                0,
                heldDeliveries.recordHeldDelivery(failed.shortCode(), "handle-4", until, null),
                "only while IN_PROGRESS");
    }

    /** A hold notes the paste's first hold with its message, and a later hold keeps the first. */
    @Test
    void aHeldDeliveryNotesThePastesFirstHoldOnce() {
        Instant until = Instant.now().plusSeconds(300);
        Instant first = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Paste paste = newPaste();

        heldDeliveries.recordHeldDelivery(paste.shortCode(), "handle-1", until, first);
        heldDeliveries.recordHeldDelivery(paste.shortCode(), "handle-2", until, first.plusSeconds(60));
        heldDeliveries.recordHeldDelivery(paste.shortCode(), "handle-3", until, null);

        assertEquals(first, reload(paste).firstHeldAt());
    }

    /** The breaker's hold is noted only while that breaker is not closed: once closed, its release may be past it. */
    @Test
    void aHoldOfTheBreakerIsNotedOnlyWhileTheBreakerIsNotClosed() throws SQLException {
        String breaker = "held-" + System.nanoTime() % 100_000;
        execute("INSERT INTO circuit_breakers (name, state, next_probe_at) VALUES (?, 'OPEN', now())", breaker);
        Instant until = Instant.now().plusSeconds(300);
        Paste paste = newPaste();

        assertEquals(1, heldDeliveries.recordBreakerHold(paste.shortCode(), "handle-1", until, null, breaker));
        execute("UPDATE circuit_breakers SET state = 'HALF_OPEN' WHERE name = ?", breaker);
        assertEquals(
                1, heldDeliveries.recordBreakerHold(paste.shortCode(), "handle-2", until, null, breaker), "probing");
        execute("UPDATE circuit_breakers SET state = 'CLOSED' WHERE name = ?", breaker);
        assertEquals(
                0,
                heldDeliveries.recordBreakerHold(paste.shortCode(), "handle-3", until, null, breaker),
                "closed meanwhile");
        assertEquals("handle-2", heldHandle(paste));
        assertEquals(
                0,
                heldDeliveries.recordBreakerHold(paste.shortCode(), "handle-4", until, null, "no-such-breaker"),
                "an unknown breaker holds nothing");
    }

    private void execute(String sql, String parameter) throws SQLException {
        try (var connection = DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
                var statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            assertEquals(1, statement.executeUpdate(), sql);
        }
    }

    private String heldHandle(Paste paste) throws SQLException {
        try (var connection = DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
                var query =
                        connection.prepareStatement("SELECT held_receipt_handle FROM pastes WHERE short_code = ?")) {
            query.setString(1, paste.shortCode());
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        }
    }
}
