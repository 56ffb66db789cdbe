package dev.pastebin.upload;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.FaultProxy.Fault;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The retry schedule end to end: S3 faults injected by the proxy, real SQS deliveries driven like the event
 * source mapping, backoff by ChangeMessageVisibility. Compressed schedule: base 1 s, multiplier 2, +/- 200 ms.
 * Gaps between deliveries are checked against the delay the function chose (whole seconds), which in turn
 * is checked against the schedule; slack covers processing and polling, not speed.
 */
@RealServices
class UploadRetryIT {

    /** Time between a delivery and the next one beyond the chosen visibility delay: processing + polling. */
    /**
     * How late a redelivery may come after its visibility timeout: polling, processing and a loaded 2-core
     * machine. Generous on purpose: lateness is latency, not a broken schedule; the schedule itself is checked
     * exactly on the attempt log (each delay within its jitter), and "never before the delay" has no slack.
     */
    private static final double LATE_SLACK_SECONDS = 10;
    /** LocalStack's visibility timer and the two delivery timestamps are taken in different processes. */
    private static final double EARLY_SLACK_SECONDS = 0.5;

    /** A fresh world per test, closed after it (JUnit closes a non-null {@code @AutoClose} field). */
    @AutoClose
    private UploadWorld world;

    @Test
    void transientFailuresThenSuccessEndProcessedOnTheSchedule() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = UploadWorld.content("three 500s, then it works\n");
        Paste paste = world.newPaste(content);
        world.proxy.failPuts(paste.shortCode(), Fault.INTERNAL_ERROR_500, Fault.INTERNAL_ERROR_500, Fault.INTERNAL_ERROR_500);
        String messageId = world.sendJob(paste, content);

        world.mapping.runUntilEmpty(Duration.ofSeconds(40));

        Paste row = world.row(paste.shortCode());
        assertEquals(PasteStatus.PROCESSED, row.status());
        assertEquals("s3://" + world.bucket + "/pastes/" + paste.shortCode(), row.s3Location());
        var object = world.object(paste.shortCode()).orElseThrow();
        assertArrayEquals(content, object.asByteArray());
        assertEquals("text/plain; charset=utf-8", object.response().contentType());
        assertEquals(4, world.proxy.putCount(paste.shortCode()));

        List<AttemptLog.Line> lines = world.attempts.of(paste.shortCode());
        assertEquals(List.of("transient", "transient", "transient", "success"), lines.stream().map(AttemptLog.Line::outcome).toList());
        assertEquals(List.of(1, 2, 3, 4), lines.stream().map(AttemptLog.Line::attempt).toList());
        double[] nominal = {1, 2, 4};
        for (int i = 0; i < 3; i++) {
            AttemptLog.Line line = lines.get(i);
            assertEquals("SERVER_ERROR", line.errorClass());
            assertEquals(500, line.s3Status());
            assertWithinJitter(nominal[i], line.delaySeconds());
        }
        assertNull(lines.get(3).errorClass());
        assertGapsFollowDelays(messageId, lines);
        assertEquals(0, dlqDepth());
    }

    @Test
    void alwaysFailingEndsFailedAfterExactlySixAttempts() throws Exception {
        // Cap at 2 s to keep the test short: delays 1, 2, 2, 2, 2.
        world = UploadWorld.start(10, 30, Map.of("pastebin.upload.retry.max-delay", "2s"));
        byte[] content = UploadWorld.content("S3 never recovers");
        Paste paste = world.newPaste(content);
        world.proxy.alwaysFailPuts(paste.shortCode(), Fault.INTERNAL_ERROR_500);
        String messageId = world.sendJob(paste, content);

        world.mapping.runUntilEmpty(Duration.ofSeconds(45));

        Paste row = world.row(paste.shortCode());
        assertEquals(PasteStatus.FAILED, row.status());
        assertTrue(row.failureReason().startsWith("exhausted: SERVER_ERROR: "), row.failureReason());
        assertTrue(row.failureReason().contains("InternalError"), row.failureReason());
        assertEquals(6, world.proxy.putCount(paste.shortCode()), "one PUT per attempt: the SDK does not retry on its own");
        assertEquals(6, world.mapping.deliveriesOf(messageId).size());
        List<AttemptLog.Line> lines = world.attempts.of(paste.shortCode());
        assertEquals(List.of("transient", "transient", "transient", "transient", "transient", "exhausted"),
                lines.stream().map(AttemptLog.Line::outcome).toList());
        assertGapsFollowDelays(messageId, lines);
        assertTrue(world.object(paste.shortCode()).isEmpty());
        assertEquals(0, dlqDepth(), "the function's exhaustion ran before the queue's redrive");
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
        AttemptLog.Line line = world.attempts.of(paste.shortCode()).getFirst();
        assertEquals("permanent", line.outcome());
        assertEquals("ACCESS_DENIED", line.errorClass());
        assertEquals(403, line.s3Status());
        assertNull(line.delaySeconds());
    }

    @Test
    void throttlingWaitsTheLongerPerClassDelay() throws Exception {
        world = UploadWorld.start(10, 30, Map.of("pastebin.upload.retry.class-base-delays.throttling", "4s"));
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
        AttemptLog.Line slowDown = world.attempts.of(throttled.shortCode()).getFirst();
        AttemptLog.Line serverError = world.attempts.of(broken.shortCode()).getFirst();
        assertEquals("THROTTLING", slowDown.errorClass());
        assertEquals(503, slowDown.s3Status());
        assertEquals("SERVER_ERROR", serverError.errorClass());
        assertWithinJitter(4, slowDown.delaySeconds());
        assertWithinJitter(1, serverError.delaySeconds());
        assertTrue(slowDown.delaySeconds() > serverError.delaySeconds());
        assertGapsFollowDelays(throttledId, world.attempts.of(throttled.shortCode()));
        assertGapsFollowDelays(brokenId, world.attempts.of(broken.shortCode()));
    }

    /** A whole-second delay drawn from nominal +/- 200 ms and rounded up or down. */
    private static void assertWithinJitter(double nominal, Integer delaySeconds) {
        assertTrue(delaySeconds != null && delaySeconds >= Math.floor(nominal - 0.2) && delaySeconds <= Math.ceil(nominal + 0.2),
                "delay " + delaySeconds + " s for nominal " + nominal + " s");
    }

    /** Each redelivery came after the delay the previous attempt chose, plus processing and polling slack. */
    private void assertGapsFollowDelays(String messageId, List<AttemptLog.Line> lines) {
        List<Double> gaps = world.mapping.gapsOf(messageId);
        assertEquals(lines.size() - 1, gaps.size(), "deliveries " + world.mapping.deliveriesOf(messageId));
        for (int i = 0; i < gaps.size(); i++) {
            int delay = lines.get(i).delaySeconds();
            double gap = gaps.get(i);
            assertTrue(gap >= delay - EARLY_SLACK_SECONDS && gap <= delay + LATE_SLACK_SECONDS,
                    "gap " + i + " was " + gap + " s for a chosen delay of " + delay + " s; all gaps " + gaps);
        }
    }

    private int dlqDepth() {
        return Integer.parseInt(UploadWorld.SQS.getQueueAttributes(b -> b.queueUrl(world.queues.deadLetterQueueUrl())
                .attributeNamesWithStrings("ApproximateNumberOfMessages")).attributesAsStrings().get("ApproximateNumberOfMessages"));
    }
}
