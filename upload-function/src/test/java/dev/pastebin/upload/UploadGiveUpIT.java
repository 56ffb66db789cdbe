package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.faults.FaultProxy.Fault;
import io.micronaut.serde.ObjectMapper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The give-up setting ({@code pastebin.delivery.give-up-after-attempts}) end to end: a lone paste whose every
 * S3 PUT fails with 500, through the real handler, LocalStack's SQS and PostgreSQL, with the breaker on as
 * deployed (a lone paste's calls are too few to open it) and the production fast schedule. With the setting at
 * 6, the original specification's rule, the paste is FAILED after exactly 6 attempts; without it (the default)
 * it keeps retrying past them and is stored once S3 recovers. Both wait on the paste's row, never on a clock.
 */
@RealServices
@OwnDatabase("upload_give_up")
class UploadGiveUpIT {

    /** Room for a day of holds, as the template's queue (DeliveryBudget checks it with the breaker on). */
    private static final int MAX_RECEIVE_COUNT = 320;
    /** The fast schedule's 31 s and their deliveries, on a loaded machine: generous, a wait bound only. */
    private static final Duration WITHIN = Duration.ofMinutes(3);

    private static final double[] NOMINAL_DELAYS = {1, 2, 4, 8, 16};

    @AutoClose
    private UploadWorld world;

    @Test
    void withTheSpecificationsRuleAPasteWhoseEveryPutFailsIsFailedAfterExactlySixAttempts() throws Exception {
        String breaker = breakerName();
        world = UploadWorld.start(
                MAX_RECEIVE_COUNT,
                30,
                Map.of(
                        "pastebin.breaker.enabled",
                        true,
                        "pastebin.breaker.name",
                        breaker,
                        "pastebin.delivery.give-up-after-attempts",
                        6));
        byte[] content = UploadWorld.content("S3 answers 500 to every PUT of this paste");
        Paste paste = world.newPaste(content);
        world.proxy.outage(Fault.INTERNAL_ERROR_500);

        try (var transitions = new BreakerLines(world.context.getBean(ObjectMapper.class), breaker)) {
            world.sendJob(paste, content);
            world.mapping.runUntilEmpty(WITHIN);
            assertEquals(List.of(), transitions.transitions(), "a lone paste's calls never opened the breaker");
        }

        Paste row = world.row(paste.shortCode());
        assertEquals(PasteStatus.FAILED, row.status());
        assertEquals(6, row.uploadAttempts(), "exactly 6 recorded attempts");
        assertTrue(row.failureReason().startsWith("gave_up: SERVER_ERROR: after S3 attempt 6: "), row.failureReason());
        assertEquals(6, world.proxy.putCount(paste.shortCode()), "6 PUTs reached S3, no more");
        assertTrue(world.object(paste.shortCode()).isEmpty());
        List<DeliveryLines.Line> lines = world.deliveries.of(paste.shortCode());
        assertEquals(
                List.of("transient", "transient", "transient", "transient", "transient", "gave_up"),
                lines.stream().map(DeliveryLines.Line::outcome).toList());
        for (int i = 0; i < NOMINAL_DELAYS.length; i++) {
            Integer delay = lines.get(i).delaySeconds();
            assertTrue(
                    delay != null
                            && delay >= Math.floor(NOMINAL_DELAYS[i] - 0.2)
                            && delay <= Math.ceil(NOMINAL_DELAYS[i] + 0.2),
                    "the fast schedule's wait after attempt " + (i + 1) + ": " + delay + " s");
        }
        assertEquals(0, world.deadLetterDepth(), "acknowledged, not dead-lettered");
    }

    @Test
    void withoutItThePasteOutlastsItsSixAttemptsAndIsStoredOnceS3Recovers() throws Exception {
        world = UploadWorld.start(
                MAX_RECEIVE_COUNT,
                30,
                Map.of(
                        "pastebin.breaker.enabled", true,
                        "pastebin.breaker.name", breakerName(),
                        // the slow waits after the fast schedule compressed (15 s growing to 5 min in production)
                        "pastebin.delivery.hold-at-least", "2s",
                        "pastebin.delivery.hold-jitter", "1s",
                        "pastebin.delivery.max-hold", "4s",
                        "pastebin.delivery.hold-limit", "10m"));
        byte[] content = UploadWorld.content("S3 answers 500 until it recovers");
        Paste paste = world.newPaste(content);
        world.proxy.outage(Fault.INTERNAL_ERROR_500);
        world.sendJob(paste, content);

        world.mapping.runUntil(
                () -> world.row(paste.shortCode()).uploadAttempts() >= 8,
                "two slow attempts after the 6 fast ones",
                WITHIN);
        Paste pastItsSixAttempts = world.row(paste.shortCode());
        assertEquals(
                PasteStatus.IN_PROGRESS,
                pastItsSixAttempts.status(),
                String.valueOf(pastItsSixAttempts.failureReason()));

        world.proxy.recover();
        world.mapping.runUntilEmpty(WITHIN);

        Paste row = world.row(paste.shortCode());
        assertEquals(PasteStatus.PROCESSED, row.status(), row.failureReason());
        assertArrayEquals(content, world.object(paste.shortCode()).orElseThrow().asByteArray());
        List<String> outcomes = world.deliveries.of(paste.shortCode()).stream()
                .map(DeliveryLines.Line::outcome)
                .toList();
        assertEquals("success", outcomes.getLast(), outcomes.toString());
        assertTrue(outcomes.contains("slow") && !outcomes.contains("gave_up"), outcomes.toString());
    }

    private static String breakerName() {
        return "give-up-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
