package dev.pastebin.upload.hold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The delivery's first statement in PostgreSQL ({@link JdbcDeliveryStarts}): the row and the breaker read together,
 * and the hold noted there and then only on the terms of {@link EarlyHold}: the breaker open with its probe further
 * away than the visibility change takes, the paste IN_PROGRESS with the job's content, within the hold limit; and
 * the held backlog counted there when the environment is due a count. A database of its own, so that the count is
 * this class's holds alone.
 */
@RealServices
@OwnDatabase("upload_starts")
class DeliveryStartsIT {

    private static final byte[] CONTENT = "held or not".getBytes(StandardCharsets.UTF_8);
    private static final String SHA256 = ContentHash.sha256Hex(CONTENT);

    private final String breaker = "start-" + UUID.randomUUID().toString().substring(0, 8);
    private ApplicationContext context;
    private DeliveryStarts starts;
    private PasteRepository pastes;
    private ShortCodes shortCodes;
    private DataSource dataSource;

    @BeforeEach
    void start() {
        context = ApplicationContext.run(
                Map.of(
                        "pastebin.breaker.enabled", true,
                        "pastebin.breaker.name", breaker,
                        "pastebin.delivery.max-hold", "5m",
                        "pastebin.delivery.hold-jitter", "5s",
                        "pastebin.delivery.hold-limit", "24h",
                        "pastebin.sqs.call-timeout", "5s"),
                "test");
        starts = context.getBean(DeliveryStarts.class);
        pastes = context.getBean(PasteRepository.class);
        shortCodes = context.getBean(ShortCodes.class);
        dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void withTheBreakerClosedItReadsTheRowAndTheBreakerAndHoldsNothing() throws SQLException {
        Paste paste = inProgress();
        execute("INSERT INTO circuit_breakers (name, state) VALUES (?, 'CLOSED')", breaker);

        DeliveryStart start = starts.begin(paste.shortCode(), SHA256, "handle", Instant.now());

        assertEquals(paste.shortCode(), start.row().orElseThrow().shortCode());
        assertEquals(PasteStatus.IN_PROGRESS, start.row().orElseThrow().status());
        assertEquals(BreakerState.CLOSED, start.breaker().state());
        assertFalse(start.held());
        assertNull(handleOf(paste));
    }

    @Test
    void anOpenBreakerWhoseProbeIsAWhileAwayHoldsTheJobInThatStatement() throws SQLException {
        Paste paste = inProgress();
        open(Duration.ofSeconds(30));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

        DeliveryStart start = starts.begin(paste.shortCode(), SHA256, "handle-1", now);

        assertTrue(start.held());
        assertEquals(now, start.heldSince(), "its first hold, noted now");
        assertNull(start.row().orElseThrow().firstHeldAt(), "the row as it was before the statement");
        assertEquals(BreakerState.OPEN, start.breaker().state());
        assertEquals("handle-1", handleOf(paste));
        assertEquals(
                now.plus(Duration.ofMinutes(15)).plusSeconds(5),
                heldUntilOf(paste),
                "the longest hold: max-backlog-hold, which the held backlog's spread may reach");

        DeliveryStart later = starts.begin(paste.shortCode(), SHA256, "handle-2", now.plusSeconds(20));
        assertEquals(now, later.heldSince(), "a later hold keeps the first");
        assertEquals("handle-2", handleOf(paste));
    }

    @Test
    void nothingIsHeldWhenTheProbeCouldComeBeforeTheVisibilityChange() throws SQLException {
        Paste paste = inProgress();
        open(Duration.ofSeconds(5)); // within the 5 s SQS call timeout and a second

        assertFalse(
                starts.begin(paste.shortCode(), SHA256, "handle", Instant.now()).held());
        execute(
                "UPDATE circuit_breakers SET state = 'HALF_OPEN', next_probe_at = now() + interval '30 seconds'"
                        + " WHERE name = ?",
                breaker);
        assertFalse(
                starts.begin(paste.shortCode(), SHA256, "handle", Instant.now()).held(), "a probe in flight");
        assertNull(handleOf(paste));
    }

    @Test
    void nothingIsHeldForAPasteNotInProgressAJobNotMatchingItsRowOrOnePastTheHoldLimit() throws SQLException {
        open(Duration.ofSeconds(30));
        Paste stored = inProgress();
        pastes.markProcessed(stored.shortCode(), "s3://bucket/pastes/" + stored.shortCode());
        Paste other = inProgress();
        Paste overdue = inProgress();
        pastes.recordFirstHold(overdue.shortCode(), Instant.now().minus(Duration.ofHours(25)));

        assertFalse(starts.begin(stored.shortCode(), SHA256, "h", Instant.now()).held(), "PROCESSED");
        assertFalse(
                starts.begin(other.shortCode(), ContentHash.sha256Hex(new byte[] {1}), "h", Instant.now())
                        .held(),
                "another content: left to the integrity check");
        assertFalse(
                starts.begin(overdue.shortCode(), SHA256, "h", Instant.now()).held(), "past the hold limit");
        DeliveryStart gone = starts.begin("Zz000000000", SHA256, "h", Instant.now());
        assertTrue(gone.row().isEmpty(), "no row");
        assertFalse(gone.held());
        assertNull(handleOf(other));
        assertNull(handleOf(overdue));
    }

    /**
     * The held backlog a breaker hold spreads over: counted in the delivery's first statement when this environment is
     * due a count (no second round trip), the rows held before that statement; nothing while the breaker is closed.
     */
    @Test
    void aDeliveryDueACountCountsTheHeldJobsInItsStatementWhileTheBreakerIsNotClosed() throws SQLException {
        HeldBacklog backlog = context.getBean(HeldBacklog.class);
        HeldDeliveryRepository held = context.getBean(HeldDeliveryRepository.class);
        open(Duration.ofSeconds(30));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        long heldBefore = held.countHeldDeliveries(now);

        for (int i = 0; i < 3; i++) {
            assertTrue(starts.begin(inProgress().shortCode(), SHA256, "handle-" + i, now)
                    .held());
        }
        assertEquals(heldBefore, backlog.held(), "counted by the first, before its own hold");

        Instant later = now.plus(HeldBacklog.RECOUNT_EVERY);
        starts.begin(inProgress().shortCode(), SHA256, "handle-3", later);
        assertEquals(heldBefore + 3, backlog.held(), "the next count, an interval later");

        execute("UPDATE circuit_breakers SET state = 'CLOSED' WHERE name = ?", breaker);
        starts.begin(inProgress().shortCode(), SHA256, "handle-4", later.plus(HeldBacklog.RECOUNT_EVERY));
        assertEquals(0, backlog.held(), "the breaker closed");
    }

    @Test
    void aBreakerNamedForTheFirstTimeHasNoRowYet() {
        Paste paste = inProgress();

        DeliveryStart start = starts.begin(paste.shortCode(), SHA256, "handle", Instant.now());

        assertNull(start.breaker(), "the breaker reads (and creates) it itself");
        assertFalse(start.held());
    }

    private Paste inProgress() {
        return pastes.save(TestPastes.inProgress(shortCodes.next(), null, SHA256, CONTENT.length));
    }

    private void open(Duration untilProbe) throws SQLException {
        execute(
                "INSERT INTO circuit_breakers (name, state, opened_at, next_probe_at, cooldown_ms) VALUES (?, 'OPEN',"
                        + " now(), now() + " + untilProbe.toSeconds() + " * interval '1 second', 30000)",
                breaker);
    }

    private String handleOf(Paste paste) throws SQLException {
        return (String) column("held_receipt_handle", paste);
    }

    private Instant heldUntilOf(Paste paste) throws SQLException {
        return ((java.sql.Timestamp) column("held_until", paste)).toInstant();
    }

    private Object column(String name, Paste paste) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                var query = connection.prepareStatement("SELECT " + name + " FROM pastes WHERE short_code = ?")) {
            query.setString(1, paste.shortCode());
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getObject(1);
            }
        }
    }

    private void execute(String sql, String parameter) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                var statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            statement.executeUpdate();
        }
    }
}
