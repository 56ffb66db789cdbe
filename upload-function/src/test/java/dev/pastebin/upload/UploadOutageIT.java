package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.faults.FaultProxy.Fault;
import io.micronaut.serde.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared circuit breaker against real SQS, PostgreSQL and LocalStack's S3 behind the fault proxy: a long
 * S3 outage costs a bounded number of S3 calls and loses no paste; a flaky S3 never opens it.
 */
@RealServices
@OwnDatabase("upload_outage")
class UploadOutageIT {

    private static final int PASTES = 200;
    private static final Duration OUTAGE = Duration.ofSeconds(40);

    private UploadWorld world;
    private BreakerLines breakerLines;

    @AfterEach
    void close() {
        if (breakerLines != null) {
            breakerLines.close();
        }
        if (world != null) {
            world.close();
        }
    }

    private Map<String, Object> breakerOn(String name) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("pastebin.breaker.enabled", true);
        settings.put("pastebin.breaker.name", name);
        return settings;
    }

    /** Longer than the integration tests' default limit: the outage lasts 40 s, the drain up to four minutes more. */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aLongOutageCostsABoundedNumberOfS3CallsAndEveryPasteEndsProcessed() throws Exception {
        String name = "outage-" + System.nanoTime() % 100_000;
        Map<String, Object> settings = breakerOn(name);
        // The breaker's defaults (cooldowns 1 s to 4 s, the opening thresholds); the holds compressed about 15-fold
        // (2 s to 8 s) so that the outage spans several probes, doublings and growing holds in 40 s.
        settings.put("pastebin.delivery.hold-at-least", "2s");
        settings.put("pastebin.delivery.hold-jitter", "1s");
        settings.put("pastebin.delivery.max-hold", "8s");
        settings.put("pastebin.delivery.hold-limit", "3m"); // within the test queue's 75 receives
        settings.put("pastebin.upload.parallelism", "8");
        world = UploadWorld.start(75, 30, settings);
        breakerLines = new BreakerLines(world.context.getBean(ObjectMapper.class), name);

        world.proxy.outage(Fault.INTERNAL_ERROR_500);
        Instant outageStarted = Instant.now();
        List<Paste> pastes = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < PASTES; i++) {
            byte[] content =
                    UploadWorld.content("paste " + i + " written while S3 was down: äöü 🌍 " + "x".repeat(i * 37));
            Paste paste = world.newPaste(content);
            world.sendJob(paste, content);
            pastes.add(paste);
            contents.add(content);
        }
        ExecutorService poller = Executors.newSingleThreadExecutor();
        Future<?> mapping = poller.submit(() -> world.mapping.runUntilEmpty(OUTAGE.plus(Duration.ofMinutes(4))));

        Thread.sleep(Math.max(
                0, OUTAGE.minus(Duration.between(outageStarted, Instant.now())).toMillis()));
        int putsDuringOutage = world.proxy.putCount();
        BreakerStore store = world.context.getBean(BreakerStore.class);
        var duringOutage = store.read(name);
        world.proxy.recover();
        Instant recovered = Instant.now();
        ReleaseWave wave = ReleaseWave.watch(world.proxy, () -> store.read(name).state());

        mapping.get();
        poller.shutdown();
        wave.stop();
        Instant lastProcessed = Instant.MIN;
        for (int i = 0; i < PASTES; i++) {
            Paste row = world.row(pastes.get(i).shortCode());
            assertEquals(PasteStatus.PROCESSED, row.status(), row.shortCode() + ": " + row.failureReason());
            assertArrayEquals(
                    contents.get(i), world.object(row.shortCode()).orElseThrow().asByteArray());
            lastProcessed = row.updatedAt().isAfter(lastProcessed) ? row.updatedAt() : lastProcessed;
        }
        Duration recoveryToLastStored = Duration.between(recovered, lastProcessed);
        System.out.printf(
                "OUTAGE %d pastes, %s outage: %d S3 PUTs during the outage (%d without the breaker would be "
                        + "6 per paste = %d), last PROCESSED %.1f s after recovery; after it: %d PUTs before the breaker "
                        + "closed, peak %d PUTs in a second%n",
                PASTES,
                OUTAGE,
                putsDuringOutage,
                PASTES,
                PASTES * 6,
                recoveryToLastStored.toMillis() / 1000.0,
                wave.putsBeforeClosing(putsDuringOutage),
                wave.peakPutsPerSecond());

        assertTrue(duringOutage.state() != BreakerState.CLOSED, "open (or probing) while S3 is down: " + duringOutage);
        assertTrue(
                putsDuringOutage < PASTES / 4,
                "the breaker bounds the calls: " + putsDuringOutage + " PUTs for " + PASTES + " pastes");
        var transitions = breakerLines.transitions();
        assertEquals("OPEN", transitions.getFirst().to(), transitions.toString());
        assertEquals("CLOSED", transitions.getLast().to(), transitions.toString());
        assertTrue(transitions.stream().anyMatch(t -> t.from().equals("OPEN") && t.to().equals("HALF_OPEN")));
        // The herd released at recovery: the probe alone calls S3 until it closes the breaker, and the wave that
        // follows never reopens it.
        assertTrue(wave.putsBeforeClosing(putsDuringOutage) <= 1, "one probe before the wave: " + wave);
        List<String> afterClosing = transitions
                .subList(
                        transitions.indexOf(transitions.stream()
                                .filter(t -> t.to().equals("CLOSED"))
                                .findFirst()
                                .orElseThrow()),
                        transitions.size())
                .stream()
                .map(t -> t.to())
                .toList();
        assertEquals(List.of("CLOSED"), afterClosing, "no second opening under the wave: " + transitions);
        // Every held paste stored within the release's bound: the probe within max-cooldown (4 s) of the recovery plus
        // the wait for a job to make the call (at most one hold, max-hold + jitter), then the probe releases every
        // held job at once (no job waits out its hold); plus 15 s for the 200 uploads themselves.
        Duration bound = Duration.ofSeconds(4 + (8 + 1) + 15);
        assertTrue(
                recoveryToLastStored.compareTo(bound) <= 0,
                "last stored " + recoveryToLastStored + " after recovery, bound " + bound);
        assertEquals(BreakerState.CLOSED, store.read(name).state());
        assertEquals(0, world.mapping.messagesInQueue());
        assertEquals(0, world.deadLetterDepth());
    }

    /**
     * A misconfigured bucket (403 for everyone) for longer than the old 15 minutes: the paste is held, not
     * FAILED, and stored once S3 answers again. The half hour of holding is compressed: the row's timestamps
     * are set back instead of waiting, and the hold limit and holds are shortened so that the queue can take
     * the receives of the whole limit.
     */
    @Test
    void aPasteHeldLongerThanFifteenMinutesIsStoredOnceS3Recovers() throws Exception {
        String name = "long-" + System.nanoTime() % 100_000;
        Map<String, Object> settings = breakerOn(name);
        settings.put("pastebin.breaker.cooldown", "1s");
        settings.put("pastebin.breaker.max-cooldown", "2s");
        settings.put("pastebin.delivery.hold-at-least", "1s");
        settings.put("pastebin.delivery.hold-jitter", "0s");
        settings.put("pastebin.delivery.max-hold", "3s");
        settings.put("pastebin.delivery.hold-limit", "30m");
        world = UploadWorld.start(1000, 30, settings);
        world.proxy.outage(Fault.ACCESS_DENIED_403);
        byte[] content = UploadWorld.content("written while the bucket policy was wrong");
        Paste paste = world.newPaste(content);
        world.sendJob(paste, content);

        runFor(Duration.ofSeconds(4));
        assertEquals("held", world.deliveries.of(paste.shortCode()).getFirst().outcome());
        // 25 minutes into the outage: created and first held that long ago
        setBack(paste.shortCode(), Duration.ofMinutes(25));
        runFor(Duration.ofSeconds(8));

        Paste held = world.row(paste.shortCode());
        assertEquals(PasteStatus.IN_PROGRESS, held.status(), String.valueOf(held.failureReason()));
        assertEquals(0, held.uploadAttempts(), "a misconfiguration spends no S3 attempt");
        assertEquals("held", world.deliveries.of(paste.shortCode()).getLast().outcome());

        world.proxy.recover();
        world.mapping.runUntilEmpty(Duration.ofSeconds(60));

        Paste stored = world.row(paste.shortCode());
        assertEquals(PasteStatus.PROCESSED, stored.status(), String.valueOf(stored.failureReason()));
        assertArrayEquals(content, world.object(paste.shortCode()).orElseThrow().asByteArray());
        assertEquals(0, world.deadLetterDepth());
    }

    /** Polls and invokes for {@code period}, whether or not the queue empties. */
    private void runFor(Duration period) {
        Instant until = Instant.now().plus(period);
        while (Instant.now().isBefore(until)) {
            var messages = world.mapping.receive(10, 1);
            if (!messages.isEmpty()) {
                world.mapping.invoke(messages);
            }
        }
    }

    /** As if the paste had been created, and first held, {@code ago} earlier than it was. */
    private void setBack(String shortCode, Duration ago) {
        assertEquals(
                1,
                world.update(
                        "UPDATE pastes SET created_at = created_at - ? * interval '1 second', "
                                + "first_held_at = first_held_at - ? * interval '1 second' WHERE short_code = ? AND first_held_at IS NOT NULL",
                        ago.toSeconds(),
                        ago.toSeconds(),
                        shortCode));
    }

    @Test
    void aFlakyS3ThatFailsHalfTheCallsNeverOpensItAndTheScheduleDecidesAsWithoutIt() throws Exception {
        String name = "flaky-" + System.nanoTime() % 100_000;
        Map<String, Object> settings = breakerOn(name);
        // a paste unlucky six times in a row waits out short slow holds, not the default 15 s and more
        settings.put("pastebin.delivery.hold-at-least", "2s");
        settings.put("pastebin.delivery.hold-jitter", "1s");
        settings.put("pastebin.delivery.max-hold", "4s");
        settings.put("pastebin.delivery.hold-limit", "10m"); // within the test queue's 320 receives
        world = UploadWorld.start(320, 30, settings);
        breakerLines = new BreakerLines(world.context.getBean(ObjectMapper.class), name);
        world.proxy.failEveryOtherPut(Fault.INTERNAL_ERROR_500);
        List<Paste> pastes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            byte[] content = UploadWorld.content("flaky " + i);
            Paste paste = world.newPaste(content);
            world.sendJob(paste, content);
            pastes.add(paste);
        }

        world.mapping.runUntilEmpty(Duration.ofMinutes(2));

        for (Paste paste : pastes) {
            // Six unlucky calls in a row (about 1 in 64) only make it slow: a transient failure never FAILs it.
            Paste row = world.row(paste.shortCode());
            assertEquals(PasteStatus.PROCESSED, row.status(), row.shortCode() + ": " + row.failureReason());
        }
        assertTrue(
                world.deliveries.all().stream()
                        .filter(l -> l.outcome().equals("slow"))
                        .allMatch(l -> l.delivery() >= 6),
                "slow only once the fast attempts are used up");
        assertEquals(List.of(), breakerLines.transitions(), "never opened");
        assertTrue(world.deliveries.all().stream().anyMatch(l -> l.outcome().equals("transient")), "failures happened");
        assertTrue(world.deliveries.all().stream().noneMatch(l -> l.outcome().equals("held")));
    }
}
