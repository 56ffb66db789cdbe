package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.breaker.BreakerClosed;
import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.delivery.DeliverySchedule;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.lambda.CurrentInvocation;
import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.core.lambda.InvocationDeadlines;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.InMemoryBreakerStore;
import dev.pastebin.core.support.MovingClock;
import dev.pastebin.core.support.TestDelivery;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.upload.hold.HeldJobRelease;
import dev.pastebin.upload.hold.MessageVisibility;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Release on close over in-memory held deliveries and SQS (HeldReleaseIT and ReleaseReachIT run the SQL and real SQS):
 * the closing invocation releases page by page, paced from the close; what it does not reach before its margin a
 * later invocation continues, one at a time; a batch whose call failed is noted again for a later page.
 */
class HeldJobReleaseTest {

    private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");
    private static final BreakerProperties BREAKER = new BreakerProperties(
            true,
            "s3",
            Duration.ofSeconds(60),
            10,
            0.9,
            Duration.ofSeconds(10),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30));
    private static final UploadProperties UPLOAD =
            new UploadProperties(4, Duration.ofSeconds(15), 1, Duration.ofSeconds(5), Duration.ofSeconds(10));

    private final MovingClock clock = new MovingClock(NOW);
    private final InMemoryBreakerStore breakers = new InMemoryBreakerStore(clock);
    private final InMemoryHeldDeliveries held = new InMemoryHeldDeliveries(breakers, null);
    private final RecordingSqs sqs = new RecordingSqs();
    private final S3CircuitBreaker breaker =
            new S3CircuitBreaker(breakers, BREAKER, new FailureClassifier(), new CapturedMetrics().metrics("upload"));
    /** The invocation the closing probe runs in. */
    private final CurrentInvocation invocation =
            TestLambdaContext.withPlentyOfTime().asCurrentInvocation();

    private final HeldJobRelease release = new HeldJobRelease(
            held,
            held,
            new MessageVisibility(sqs, new UploadQueueProperties("http://127.0.0.1:4566/000000000000/q", 393_216)),
            new InvocationDeadlines(invocation),
            UPLOAD,
            new DeliverySchedule(TestDelivery.defaults().releaseRate(200).build()),
            breaker,
            BREAKER,
            clock);

    /** Jobs held for five minutes more, noted as handles h000, h001, ... */
    private void holding(int jobs) {
        for (int i = 0; i < jobs; i++) {
            held.recordHeldDelivery("code%03d".formatted(i), "h%03d".formatted(i), NOW.plusSeconds(300), null);
        }
    }

    private static Deadline plentyOfTime() {
        return new Deadline(() -> 300_000L, UPLOAD.remainingTimeMargin());
    }

    private BreakerSnapshot.PendingRelease pending() {
        return breakers.read("s3").release();
    }

    @Test
    void theClosingProbeReleasesEveryHeldJobPacedFromTheClose() {
        holding(450);

        release.onApplicationEvent(new BreakerClosed("s3", NOW));

        assertEquals(450, sqs.visibility.size());
        assertEquals(45, sqs.batchCalls.get(), "10 a call");
        assertEquals(0, sqs.visibility.get("h000"));
        assertEquals(1, sqs.visibility.get("h200"), "200 a second from the close");
        assertEquals(2, sqs.visibility.get("h449"));
        assertEquals(0, held.countHeldDeliveries(NOW));
        assertNull(pending(), "finished: nothing held is left");
    }

    @Test
    void whatTheClosingInvocationDoesNotReachALaterInvocationContinues() {
        holding(450);
        // the closing invocation reaches its margin once it has taken one page
        invocation.begin(TestLambdaContext.runningOutWhen(() -> held.position("s3") >= HeldJobRelease.PAGE));

        release.onApplicationEvent(new BreakerClosed("s3", NOW));

        assertEquals(HeldJobRelease.PAGE, sqs.visibility.size());
        assertEquals(250, held.countHeldDeliveries(NOW), "left for later");
        assertNotNull(pending());
        assertNull(pending().leasedUntil(), "given back for the next invocation");

        // A second later another invocation's upload reads the breaker, sees the release unattended and continues it
        clock.advance(Duration.ofSeconds(1));
        assertTrue(breaker.closed());
        release.continuePending(plentyOfTime());

        assertEquals(450, sqs.visibility.size());
        assertEquals(0, sqs.visibility.get("h200"), "its turn, a second after the close, has come");
        assertEquals(1, sqs.visibility.get("h449"), "2 s after the close");
        assertNull(pending(), "finished");
    }

    @Test
    void aBatchWhoseCallFailedIsNotedAgainAndTheNextInvocationReleasesIt() {
        holding(30);
        sqs.failingBatchesWith.add("h015");

        release.onApplicationEvent(new BreakerClosed("s3", NOW));

        assertEquals(20, sqs.visibility.size(), "the other batches of the page");
        assertEquals("h015", held.of("code015").heldReceiptHandle(), "noted again");
        assertEquals(10, held.countHeldDeliveries(NOW));
        assertNull(pending().leasedUntil(), "this invocation stopped and gave it back");

        sqs.failingBatchesWith.clear();
        assertTrue(breaker.closed());
        release.continuePending(plentyOfTime());

        assertEquals(30, sqs.visibility.size());
        assertNull(pending());
    }

    @Test
    void nobodyContinuesAReleaseAnotherInvocationIsCarryingOnOrThatNoCloseBegan() {
        holding(30);
        assertTrue(breaker.closed());
        release.continuePending(plentyOfTime());
        assertEquals(0, sqs.batchCalls.get(), "no release pending");

        held.begin("s3", NOW, NOW.plusSeconds(60));
        assertTrue(breaker.closed());
        release.continuePending(plentyOfTime());
        assertEquals(0, sqs.batchCalls.get(), "leased to another invocation for another minute");

        clock.advance(Duration.ofSeconds(60));
        release.continuePending(plentyOfTime());
        assertEquals(30, sqs.visibility.size(), "its holder's time is up");
    }
}
