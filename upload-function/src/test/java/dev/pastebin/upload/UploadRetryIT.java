package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.faults.FaultProxy.Fault;
import io.micronaut.serde.ObjectMapper;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The retry schedule end to end: S3 faults injected by the proxy, real SQS deliveries driven like the event
 * source mapping, backoff by ChangeMessageVisibility. Compressed schedule: base 1 s, multiplier 2, +/- 200 ms.
 * Gaps between deliveries are checked against the delay the function chose (whole seconds), which in turn
 * is checked against the schedule; slack covers processing and polling, not speed.
 */
@RealServices
@OwnDatabase("upload_retry")
class UploadRetryIT {

    // Time between a delivery and the next one beyond the chosen visibility delay: processing + polling.
    /**
     * How late a redelivery may come after its visibility timeout: polling, processing and a loaded 2-core
     * machine. Generous on purpose: lateness is latency, not a broken schedule; the schedule itself is checked
     * exactly on the delivery log (each delay within its jitter), and "never before the delay" has no slack.
     */
    private static final double LATE_SLACK_SECONDS = 10;
    /** LocalStack's visibility timer and the two delivery timestamps are taken in different processes. */
    private static final double EARLY_SLACK_SECONDS = 0.5;
    /** Longer than the compressed fast schedule (about 9 s) and a few slow waits after it. */
    private static final Duration OUTAGE = Duration.ofSeconds(25);

    /** A fresh world per test, closed after it (JUnit closes a non-null {@code @AutoClose} field). */
    @AutoClose
    private UploadWorld world;

    @Test
    void transientFailuresThenSuccessEndProcessedOnTheSchedule() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = UploadWorld.content("three 500s, then it works\n");
        Paste paste = world.newPaste(content);
        world.proxy.failPuts(
                paste.shortCode(), Fault.INTERNAL_ERROR_500, Fault.INTERNAL_ERROR_500, Fault.INTERNAL_ERROR_500);
        String messageId = world.sendJob(paste, content);

        world.mapping.runUntilEmpty(Duration.ofSeconds(40));

        Paste row = world.row(paste.shortCode());
        assertEquals(PasteStatus.PROCESSED, row.status());
        assertEquals("s3://" + world.bucket + "/pastes/" + paste.shortCode(), row.s3Location());
        var object = world.object(paste.shortCode()).orElseThrow();
        assertArrayEquals(content, object.asByteArray());
        assertEquals("text/plain; charset=utf-8", object.response().contentType());
        assertEquals(4, world.proxy.putCount(paste.shortCode()));

        List<DeliveryLines.Line> lines = world.deliveries.of(paste.shortCode());
        assertEquals(
                List.of("transient", "transient", "transient", "success"),
                lines.stream().map(DeliveryLines.Line::outcome).toList());
        assertEquals(
                List.of(1, 2, 3, 4),
                lines.stream().map(DeliveryLines.Line::delivery).toList());
        double[] nominal = {1, 2, 4};
        for (int i = 0; i < 3; i++) {
            DeliveryLines.Line line = lines.get(i);
            assertEquals("SERVER_ERROR", line.errorClass());
            assertEquals(500, line.s3Status());
            assertWithinJitter(nominal[i], line.delaySeconds());
        }
        assertNull(lines.get(3).errorClass());
        assertGapsFollowDelays(messageId, lines);
        assertEquals(0, world.deadLetterDepth());
    }

    /**
     * S3 denies access to everyone (the breaker opens at once) for longer than the hold limit: the job is held,
     * and at its first delivery past the limit the worker hands it to the dead-letter queue and acknowledges it,
     * long before the queue's redrive (75 receives) would; its paste stays IN_PROGRESS for the sweeper.
     */
    @Test
    void aJobPastTheHoldLimitIsHandedToTheDeadLetterQueueInOneDelivery() throws Exception {
        Map<String, Object> settings = new HashMap<>();
        settings.put("pastebin.breaker.enabled", true);
        settings.put("pastebin.delivery.hold-at-least", "2s");
        settings.put("pastebin.delivery.hold-jitter", "0s");
        settings.put("pastebin.delivery.max-hold", "3s");
        settings.put("pastebin.delivery.hold-limit", "10s");
        world = UploadWorld.start(75, 30, settings);
        byte[] content = UploadWorld.content("held past its hold limit by a misconfigured bucket");
        Paste paste = world.newPaste(content);
        world.proxy.outage(Fault.ACCESS_DENIED_403);
        try {
            world.sendJob(paste, content);
            world.mapping.runUntilEmpty(Duration.ofSeconds(120));
        } finally {
            world.proxy.recover();
        }

        List<DeliveryLines.Line> lines = world.deliveries.of(paste.shortCode());
        List<String> outcomes = lines.stream().map(DeliveryLines.Line::outcome).toList();
        assertEquals("overdue", outcomes.getLast(), outcomes.toString());
        assertTrue(outcomes.subList(0, outcomes.size() - 1).stream().allMatch("held"::equals), outcomes.toString());
        assertTrue(lines.size() < 75, "handed over, not redriven: " + lines.size() + " deliveries");
        assertEquals(PasteStatus.IN_PROGRESS, world.row(paste.shortCode()).status());
        var deadLetters = UploadWorld.SQS
                .receiveMessage(b -> b.queueUrl(world.queues.deadLetterQueueUrl())
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(5))
                .messages();
        assertEquals(1, deadLetters.size(), "the job, once");
        assertEquals(
                paste.shortCode(),
                world.context
                        .getBean(dev.pastebin.core.job.UploadJobCodec.class)
                        .decode(deadLetters.getFirst().body())
                        .shortCode());
    }

    /**
     * A lone paste meets an S3 answering 500 for longer than its whole fast schedule, in a quiet period: too
     * few calls for the breaker to judge (it stays closed). The paste is not FAILED: once its fast attempts are
     * used up it waits on the slow hold schedule, one PUT per delivery, and is stored once S3 recovers.
     */
    @Test
    void aLonePasteOutlastsAnS3OutageLongerThanItsFastAttemptsAndIsStoredWhenS3Recovers() throws Exception {
        String breaker = "lone-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> settings = new HashMap<>();
        // Fast attempts capped at 2 s (delays 1, 2, 2, 2, 2: about 9 s); the slow waits compressed to 4-8 s.
        settings.put("pastebin.delivery.max-delay", "2s");
        settings.put("pastebin.breaker.enabled", true);
        settings.put("pastebin.breaker.name", breaker);
        settings.put("pastebin.breaker.minimum-calls", 20);
        settings.put("pastebin.delivery.hold-at-least", "4s");
        settings.put("pastebin.delivery.hold-jitter", "1s");
        settings.put("pastebin.delivery.max-hold", "8s");
        settings.put("pastebin.delivery.hold-limit", "2m");
        world = UploadWorld.start(75, 30, settings);
        byte[] content = UploadWorld.content("written just before S3 went down for longer than the fast schedule");
        Paste paste = world.newPaste(content);
        world.proxy.outage(Fault.INTERNAL_ERROR_500);
        String messageId;
        try (var transitions = new BreakerLines(world.context.getBean(ObjectMapper.class), breaker);
                ExecutorService poller = Executors.newSingleThreadExecutor()) {
            messageId = world.sendJob(paste, content);
            Future<?> mapping = poller.submit(() -> world.mapping.runUntilEmpty(Duration.ofSeconds(90)));
            Thread.sleep(OUTAGE.toMillis());
            Paste duringOutage = world.row(paste.shortCode());
            world.proxy.recover();
            mapping.get();

            assertEquals(
                    PasteStatus.IN_PROGRESS, duringOutage.status(), "never FAILED: " + duringOutage.failureReason());
            assertTrue(duringOutage.uploadAttempts() > 6, "past its fast attempts: " + duringOutage.uploadAttempts());
            assertNotNull(duringOutage.firstHeldAt(), "its slow wait counts from its first");
            assertEquals(List.of(), transitions.transitions(), "a lone paste's calls never opened the breaker");
        }

        Paste row = world.row(paste.shortCode());
        assertEquals(PasteStatus.PROCESSED, row.status(), row.failureReason());
        assertArrayEquals(content, world.object(paste.shortCode()).orElseThrow().asByteArray());
        List<DeliveryLines.Line> lines = world.deliveries.of(paste.shortCode());
        List<String> outcomes = lines.stream().map(DeliveryLines.Line::outcome).toList();
        assertEquals(
                List.of("transient", "transient", "transient", "transient", "transient"),
                outcomes.subList(0, 5),
                outcomes.toString());
        assertEquals("success", outcomes.getLast(), outcomes.toString());
        List<DeliveryLines.Line> slow = lines.subList(5, lines.size() - 1);
        assertTrue(!slow.isEmpty() && slow.stream().allMatch(l -> l.outcome().equals("slow")), outcomes.toString());
        for (DeliveryLines.Line line : slow) {
            assertEquals("SERVER_ERROR", line.errorClass());
            assertTrue(
                    line.delaySeconds() >= 4 && line.delaySeconds() <= 9,
                    "on the hold schedule: " + line.delaySeconds() + " s");
        }
        assertEquals(
                lines.size(),
                world.proxy.putCount(paste.shortCode()),
                "one PUT per delivery: the SDK does not retry on its own");
        assertGapsFollowDelays(messageId, lines);
        assertEquals(0, world.deadLetterDepth());
    }

    @Test
    void accessDeniedEndsFailedAfterOneAttempt() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = UploadWorld.content("the role may not write");
        Paste paste = world.newPaste(content);
        world.proxy.alwaysFailPuts(paste.shortCode(), Fault.ACCESS_DENIED_403);
        String messageId = world.sendJob(paste, content);

        world.mapping.runUntilEmpty(Duration.ofSeconds(20));

        Paste row = world.row(paste.shortCode());
        assertEquals(PasteStatus.FAILED, row.status());
        assertTrue(row.failureReason().startsWith("permanent: ACCESS_DENIED: "), row.failureReason());
        assertEquals(1, world.proxy.putCount(paste.shortCode()));
        assertEquals(1, world.mapping.deliveriesOf(messageId).size());
        DeliveryLines.Line line = world.deliveries.of(paste.shortCode()).getFirst();
        assertEquals("permanent", line.outcome());
        assertEquals("ACCESS_DENIED", line.errorClass());
        assertEquals(403, line.s3Status());
        assertNull(line.delaySeconds());
    }

    @Test
    void throttlingWaitsTheLongerPerClassDelay() throws Exception {
        world = UploadWorld.start(10, 30, Map.of("pastebin.delivery.class-base-delays.throttling", "4s"));
        byte[] throttledContent = UploadWorld.content("slow down");
        byte[] brokenContent = UploadWorld.content("plain 500");
        Paste throttled = world.newPaste(throttledContent);
        Paste broken = world.newPaste(brokenContent);
        world.proxy.failPuts(throttled.shortCode(), Fault.SLOW_DOWN_503);
        world.proxy.failPuts(broken.shortCode(), Fault.INTERNAL_ERROR_500);
        String throttledId = world.sendJob(throttled, throttledContent);
        String brokenId = world.sendJob(broken, brokenContent);

        world.mapping.runUntilEmpty(Duration.ofSeconds(30));

        assertEquals(PasteStatus.PROCESSED, world.row(throttled.shortCode()).status());
        assertEquals(PasteStatus.PROCESSED, world.row(broken.shortCode()).status());
        DeliveryLines.Line slowDown = world.deliveries.of(throttled.shortCode()).getFirst();
        DeliveryLines.Line serverError = world.deliveries.of(broken.shortCode()).getFirst();
        assertEquals("THROTTLING", slowDown.errorClass());
        assertEquals(503, slowDown.s3Status());
        assertEquals("SERVER_ERROR", serverError.errorClass());
        assertWithinJitter(4, slowDown.delaySeconds());
        assertWithinJitter(1, serverError.delaySeconds());
        assertTrue(slowDown.delaySeconds() > serverError.delaySeconds());
        assertGapsFollowDelays(throttledId, world.deliveries.of(throttled.shortCode()));
        assertGapsFollowDelays(brokenId, world.deliveries.of(broken.shortCode()));
    }

    /** A whole-second delay drawn from nominal +/- 200 ms and rounded up or down. */
    private static void assertWithinJitter(double nominal, Integer delaySeconds) {
        assertTrue(
                delaySeconds != null
                        && delaySeconds >= Math.floor(nominal - 0.2)
                        && delaySeconds <= Math.ceil(nominal + 0.2),
                "delay " + delaySeconds + " s for nominal " + nominal + " s");
    }

    /** Each redelivery came after the delay the previous delivery chose, plus processing and polling slack. */
    private void assertGapsFollowDelays(String messageId, List<DeliveryLines.Line> lines) {
        List<Double> gaps = world.mapping.gapsOf(messageId);
        assertEquals(lines.size() - 1, gaps.size(), "deliveries " + world.mapping.deliveriesOf(messageId));
        for (int i = 0; i < gaps.size(); i++) {
            int delay = lines.get(i).delaySeconds();
            double gap = gaps.get(i);
            assertTrue(
                    gap >= delay - EARLY_SLACK_SECONDS && gap <= delay + LATE_SLACK_SECONDS,
                    "gap " + i + " was " + gap + " s for a chosen delay of " + delay + " s; all gaps " + gaps);
        }
    }
}
