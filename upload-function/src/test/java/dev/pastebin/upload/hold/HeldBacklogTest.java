package dev.pastebin.upload.hold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** One delivery in an environment counts the held backlog per interval, however many run at once. */
class HeldBacklogTest {

    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");

    private final HeldBacklog backlog = new HeldBacklog();

    @Test
    void theFirstDeliveryCountsThenNoneUntilTheIntervalHasPassed() {
        assertTrue(backlog.claimCount(NOW), "nothing counted yet");
        assertFalse(backlog.claimCount(NOW));
        assertFalse(backlog.claimCount(NOW.plus(HeldBacklog.RECOUNT_EVERY).minusMillis(1)));
        assertTrue(backlog.claimCount(NOW.plus(HeldBacklog.RECOUNT_EVERY)));
    }

    @Test
    void theBacklogIsTheLastCountZeroBeforeAny() {
        assertEquals(0, backlog.held());
        backlog.counted(5_000);
        assertEquals(5_000, backlog.held());
        backlog.counted(0);
        assertEquals(0, backlog.held(), "the breaker closed");
    }

    @Test
    void ofDeliveriesStartingTogetherExactlyOneCounts() throws Exception {
        int deliveries = 16;
        CountDownLatch ready = new CountDownLatch(deliveries);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger claimed = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(deliveries)) {
            List<Future<?>> started = new ArrayList<>();
            for (int i = 0; i < deliveries; i++) {
                started.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    if (backlog.claimCount(NOW)) {
                        claimed.incrementAndGet();
                    }
                    return null;
                }));
            }
            ready.await();
            go.countDown();
            for (Future<?> delivery : started) {
                delivery.get();
            }
        }
        assertEquals(1, claimed.get());
    }
}
