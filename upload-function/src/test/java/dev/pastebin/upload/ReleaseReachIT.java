package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.Context;
import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.faults.FaultProxy.Fault;
import io.micronaut.serde.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Release on close reaches every held job, whatever one invocation can do (docs/design.md, "Circuit breaker"):
 * against real SQS, PostgreSQL and LocalStack's S3 behind the fault proxy, with more jobs held than the closing
 * invocation may release before its margin. Every invocation here runs out of time as soon as its release has taken
 * any held job (a deadline set by what the release did, not by a clock), so the release only ends because later
 * invocations continue it. Holds last ten minutes, so a job the release does not reach cannot come back on its own
 * while the test runs: every paste stored means every held job was released.
 */
@RealServices
@OwnDatabase("upload_reach")
class ReleaseReachIT {

    /** More held jobs than one page of the release, so one invocation cannot release them all. */
    private static final int HELD = 250;

    private static final Duration HOLD = Duration.ofMinutes(10);
    private static final String HELD_ROWS =
            "SELECT count(*) FROM pastes WHERE held_receipt_handle IS NOT NULL AND status = 'IN_PROGRESS'";

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

    @Test
    void laterInvocationsContinueTheReleaseUntilNoHeldJobIsLeft() throws Exception {
        String name = "reach-" + System.nanoTime() % 100_000;
        Map<String, Object> settings = new HashMap<>();
        settings.put("pastebin.breaker.enabled", true);
        settings.put("pastebin.breaker.name", name);
        settings.put("pastebin.breaker.cooldown", "1s");
        settings.put("pastebin.breaker.max-cooldown", "1s");
        settings.put("pastebin.delivery.hold-at-least", HOLD.toSeconds() + "s");
        settings.put("pastebin.delivery.hold-jitter", "0s");
        settings.put("pastebin.delivery.max-hold", HOLD.toSeconds() + "s");
        settings.put("pastebin.delivery.hold-limit", "1h");
        world = UploadWorld.start(100, 30, settings, this::anInvocationThatEndsOnceItsReleaseTookAJob);
        breakerLines = new BreakerLines(world.context.getBean(ObjectMapper.class), name);

        // A wrong bucket policy opens the breaker at once and holds every job, each for ten minutes.
        world.proxy.outage(Fault.ACCESS_DENIED_403);
        List<Paste> held = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < HELD; i++) {
            byte[] content = UploadWorld.content("held " + i);
            Paste paste = world.newPaste(content);
            world.sendJob(paste, content);
            held.add(paste);
            contents.add(content);
        }
        world.mapping.runUntil(() -> heldRows() == HELD, "every job held", Duration.ofMinutes(1));

        BreakerStore store = world.context.getBean(BreakerStore.class);
        world.proxy.recover();
        int putsAtRecovery = world.proxy.putCount();
        ReleaseWave wave = ReleaseWave.watch(world.proxy, () -> store.read(name).state());
        awaitProbeDue(store, name);
        byte[] probeContent = UploadWorld.content("the probe");
        world.sendJob(world.newPaste(probeContent), probeContent);

        // Far less than a hold: only a released job can come back in this time.
        world.mapping.runUntil(() -> allProcessed(held), "every held paste stored", Duration.ofMinutes(2));
        wave.stop();

        for (int i = 0; i < HELD; i++) {
            Paste row = world.row(held.get(i).shortCode());
            assertEquals(PasteStatus.PROCESSED, row.status(), row.shortCode());
            assertArrayEquals(
                    contents.get(i), world.object(row.shortCode()).orElseThrow().asByteArray());
        }
        assertEquals(0, heldRows(), "no held delivery left to release");
        assertEquals(
                0,
                world.number("SELECT count(*) FROM circuit_breakers WHERE name = ? AND release_from IS NOT NULL", name),
                "the release is finished");
        assertEquals(BreakerState.CLOSED, store.read(name).state());
        assertTrue(wave.putsBeforeClosing(putsAtRecovery) <= 1, "no PUT but the probe's before the close: " + wave);
        var transitions = breakerLines.transitions();
        int closed = transitions.stream().map(t -> t.to()).toList().indexOf("CLOSED");
        assertEquals(transitions.size() - 1, closed, "closed once, no second opening: " + transitions);
    }

    /**
     * Plenty of time until the held rows this invocation started with shrink, i.e. until its release has taken a
     * page of them; then less than any margin.
     */
    private Context anInvocationThatEndsOnceItsReleaseTookAJob() {
        long atStart = heldRows();
        return TestLambdaContext.runningOutWhen(() -> heldRows() < atStart);
    }

    private long heldRows() {
        return world.number(HELD_ROWS);
    }

    private boolean allProcessed(List<Paste> pastes) {
        return pastes.stream().allMatch(p -> world.row(p.shortCode()).status() == PasteStatus.PROCESSED);
    }

    /** Waits until the open breaker's probe is due (its cool-down is a second). */
    private static void awaitProbeDue(BreakerStore store, String name) throws InterruptedException {
        Instant giveUp = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(giveUp)) {
            var breaker = store.read(name);
            if (breaker.state() == BreakerState.OPEN && !Instant.now().isBefore(breaker.nextProbeAt())) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the probe never became due: " + store.read(name));
    }
}
