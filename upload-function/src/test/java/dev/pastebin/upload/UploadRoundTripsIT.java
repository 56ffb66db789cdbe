package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.PostgresWireMeter;
import dev.pastebin.core.support.RealServices;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * What one delivery costs the database, counted on the wire ({@link PostgresWireMeter}: a round trip is a Sync or a
 * simple Query the function waits on; the pool's connection check is left out): the upload that stores a paste, and
 * the delivery the open breaker holds (docs/scale.md, "Work per operation"). Real PostgreSQL, SQS and LocalStack's S3.
 */
@RealServices
class UploadRoundTripsIT {

    private static PostgresWireMeter meter;
    private static String meteredUrl;

    private UploadWorld world;
    private String breaker;
    /** The message {@link #received} took from the queue, for the measured invocation. */
    private List<Message> messages = List.of();

    @BeforeAll
    static void meter() throws Exception {
        String database = OwnDatabase.Create.migrated("upload_trips");
        URI target = URI.create(database.substring("jdbc:".length()));
        meter = PostgresWireMeter.start(target.getHost(), target.getPort());
        meteredUrl = "jdbc:postgresql://127.0.0.1:" + meter.port() + target.getPath()
                + "?sslmode=disable&gssEncMode=disable";
    }

    @AfterAll
    static void stopMeter() throws Exception {
        meter.close();
    }

    @BeforeEach
    void start() throws Exception {
        breaker = "trips-" + System.nanoTime() % 100_000;
        Map<String, Object> settings = new HashMap<>();
        settings.put("datasources.default.url", meteredUrl);
        settings.put("pastebin.breaker.enabled", true);
        settings.put("pastebin.breaker.name", breaker);
        // an environment adds the answers it keeps to the breaker's row a sixth of a window after the first: not here
        settings.put("pastebin.breaker.window", "1h");
        // the default hold schedule: a day of holds, which the queue's receives must cover
        world = UploadWorld.start(320, 30, settings);
        // A first upload warms the pool, the statements and the breaker's row, none of which a warm environment redoes.
        Paste first = received();
        world.mapping.invoke(messages);
        assertEquals(PasteStatus.PROCESSED, status(first));
    }

    @AfterEach
    void close() {
        world.close();
    }

    @Test
    void aStoredUploadReadsItsRowAndTheBreakerInOneRoundTripProbesTheBlocklistAndStoresInOne() {
        Paste stored = received();
        Delivered delivered = delivered();
        assertEquals(PasteStatus.PROCESSED, status(stored));
        // and the blocklist's probe, before the PUT (a job whose content was blocklisted since is never stored)
        assertEquals(3, delivered.roundTrips(), "round trips: " + delivered.statements());
    }

    @Test
    void aDeliveryTheOpenBreakerHoldsCostsOneStatement() {
        world.update(
                "UPDATE circuit_breakers SET state = 'OPEN', opened_at = now(), next_probe_at = now() + interval '60 seconds',"
                        + " cooldown_ms = 60000 WHERE name = ?",
                breaker);
        Paste held = received();
        Delivered delivered = delivered();
        assertHeldAndNoted(held, "its first hold and its message noted for the release on close");
        assertEquals(1, delivered.roundTrips(), "round trips: " + delivered.statements());
    }

    /**
     * The probe due within seconds, as the default cadence (a probe every 4 s at most) always has it: too soon for the
     * first statement to note the hold before the visibility change, so it is noted after it. A held delivery makes no
     * PUT, so it does not probe the blocklist either.
     */
    @Test
    void aDeliveryHeldWithTheProbeDueWithinSecondsCostsTwo() {
        world.update(
                "UPDATE circuit_breakers SET state = 'OPEN', opened_at = now(), next_probe_at = now() + interval '5 seconds',"
                        + " cooldown_ms = 4000 WHERE name = ?",
                breaker);
        Paste held = received();
        Delivered delivered = delivered();
        assertHeldAndNoted(held, "its first hold and its message noted once its message is invisible");
        assertEquals(2, delivered.roundTrips(), "round trips: " + delivered.statements());
    }

    @Test
    void aDeliveryHeldWhileTheProbeIsInFlightCostsTwo() {
        world.update(
                "UPDATE circuit_breakers SET state = 'HALF_OPEN', opened_at = now(), next_probe_at = now() + interval '30 seconds',"
                        + " cooldown_ms = 10000 WHERE name = ?",
                breaker);
        Paste held = received();
        Delivered delivered = delivered();
        assertEquals("held", world.deliveries.of(held.shortCode()).getFirst().outcome());
        assertTrue(
                world.number(
                                "SELECT count(*) FROM pastes WHERE short_code = ? AND held_receipt_handle IS NOT NULL",
                                held.shortCode())
                        == 1,
                "noted once its message is invisible");
        // the row and the breaker, then the note; no blocklist probe, since no PUT follows
        assertEquals(2, delivered.roundTrips(), "round trips: " + delivered.statements());
    }

    /** What one invocation of the mapping with {@link #messages} cost the database, and its statements for a failure. */
    private record Delivered(long roundTrips, List<String> statements) {}

    private Delivered delivered() {
        PostgresWireMeter.Reading before = meter.read();
        int traced = meter.traced();
        world.mapping.invoke(messages);
        return new Delivered(meter.read().minus(before).roundTrips(), meter.traceFrom(traced));
    }

    /** Held, not stored, with its first hold and its message's receipt handle on its row. */
    private void assertHeldAndNoted(Paste held, String why) {
        assertEquals(PasteStatus.IN_PROGRESS, status(held));
        assertEquals("held", world.deliveries.of(held.shortCode()).getFirst().outcome());
        assertEquals(
                1,
                world.number(
                        "SELECT count(*) FROM pastes WHERE short_code = ? AND first_held_at IS NOT NULL"
                                + " AND held_receipt_handle IS NOT NULL",
                        held.shortCode()),
                why);
    }

    /** Creates a paste and sends its job, as the create function does, and receives it into {@link #messages}. */
    private Paste received() {
        byte[] content = UploadWorld.content("round trips " + System.nanoTime());
        Paste paste = world.newPaste(content);
        world.sendJob(paste, content);
        messages = List.of();
        while (messages.isEmpty()) {
            messages = world.mapping.receive(1, 5);
        }
        return paste;
    }

    private PasteStatus status(Paste paste) {
        return world.row(paste.shortCode()).status();
    }
}
