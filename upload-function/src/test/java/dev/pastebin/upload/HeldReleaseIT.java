package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.faults.FaultProxy.Fault;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Release on close against real SQS, PostgreSQL and LocalStack's S3 behind the fault proxy: jobs held for a
 * minute come back as soon as a probe closes the breaker, not at their hold's end (docs/design.md, "Circuit breaker").
 */
@RealServices
@OwnDatabase("upload_held")
class HeldReleaseIT {

    private static final int HELD = 25;
    private static final Duration HOLD = Duration.ofSeconds(60);

    private UploadWorld world;

    @AfterEach
    void close() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void theProbeThatClosesTheBreakerReleasesTheHeldJobsAtOnce() throws Exception {
        String name = "release-" + System.nanoTime() % 100_000;
        Map<String, Object> settings = new HashMap<>();
        settings.put("pastebin.breaker.enabled", true);
        settings.put("pastebin.breaker.name", name);
        settings.put("pastebin.breaker.cooldown", "1s");
        settings.put("pastebin.breaker.max-cooldown", "1s");
        // every hold lasts a minute: a job back before that was released
        settings.put("pastebin.delivery.hold-at-least", HOLD.toSeconds() + "s");
        settings.put("pastebin.delivery.hold-jitter", "0s");
        settings.put("pastebin.delivery.max-hold", HOLD.toSeconds() + "s");
        settings.put("pastebin.delivery.hold-limit", "1h");
        world = UploadWorld.start(100, 30, settings);

        // A wrong bucket policy opens the breaker at once and holds every job, the first included.
        world.proxy.outage(Fault.ACCESS_DENIED_403);
        List<Paste> held = new ArrayList<>();
        for (int i = 0; i < HELD; i++) {
            byte[] content = UploadWorld.content("held " + i);
            Paste paste = world.newPaste(content);
            world.sendJob(paste, content);
            held.add(paste);
        }
        Instant until = Instant.now().plusSeconds(30);
        while (held.stream().anyMatch(p -> world.deliveries.of(p.shortCode()).isEmpty())
                && Instant.now().isBefore(until)) {
            List<Message> messages = world.mapping.receive(10, 1);
            if (!messages.isEmpty()) {
                world.mapping.invoke(messages);
            }
        }
        for (Paste paste : held) {
            assertEquals(
                    List.of("held"),
                    world.deliveries.of(paste.shortCode()).stream()
                            .map(l -> l.outcome())
                            .toList(),
                    paste.shortCode());
        }

        // A row whose noted handle a later receive made stale: the release must carry on past it.
        byte[] staleContent = UploadWorld.content("received again since its hold");
        Paste stale = world.newPaste(staleContent);
        world.sendJob(stale, staleContent);
        String staleHandle = receiveOnly().receiptHandle();
        UploadWorld.SQS.changeMessageVisibility(b ->
                b.queueUrl(world.queues.queueUrl()).receiptHandle(staleHandle).visibilityTimeout(0));
        String currentHandle = receiveOnly().receiptHandle();
        UploadWorld.SQS.changeMessageVisibility(b -> b.queueUrl(world.queues.queueUrl())
                .receiptHandle(currentHandle)
                .visibilityTimeout((int) HOLD.toSeconds()));
        assertEquals(
                1,
                world.update(
                        "UPDATE pastes SET first_held_at = now(), held_receipt_handle = ?, "
                                + "held_until = now() + interval '60 seconds' WHERE short_code = ?",
                        staleHandle,
                        stale.shortCode()));

        // And one whose message is gone (deleted since): SQS refuses that entry, the rest of its batch is released.
        byte[] goneContent = UploadWorld.content("its message was deleted");
        Paste gone = world.newPaste(goneContent);
        world.sendJob(gone, goneContent);
        String goneHandle = receiveOnly().receiptHandle();
        UploadWorld.SQS.deleteMessage(b -> b.queueUrl(world.queues.queueUrl()).receiptHandle(goneHandle));
        assertEquals(
                1,
                world.update(
                        "UPDATE pastes SET first_held_at = now() - interval '1 hour', held_receipt_handle = ?, "
                                + "held_until = now() + interval '60 seconds' WHERE short_code = ?",
                        goneHandle,
                        gone.shortCode()));

        world.proxy.recover();
        Thread.sleep(1_500); // the probe is due
        byte[] content = UploadWorld.content("the probe");
        Paste probe = world.newPaste(content);
        world.sendJob(probe, content);
        Instant probeSent = Instant.now();

        Instant giveUp = probeSent.plus(HOLD.dividedBy(2));
        while (!allProcessed(held) && Instant.now().isBefore(giveUp)) {
            List<Message> messages = world.mapping.receive(10, 1);
            if (!messages.isEmpty()) {
                world.mapping.invoke(messages);
            }
        }

        Duration drained = Duration.between(probeSent, Instant.now());
        assertEquals(
                0,
                world.update(
                        "UPDATE pastes SET status = status WHERE short_code = ? AND held_receipt_handle IS NOT NULL",
                        stale.shortCode()),
                "the stale handle is forgotten");
        assertEquals(
                0,
                world.update(
                        "UPDATE pastes SET status = status WHERE short_code = ? AND held_receipt_handle IS NOT NULL",
                        gone.shortCode()),
                "the refused handle is forgotten");
        assertEquals(
                BreakerState.CLOSED,
                world.context.getBean(BreakerStore.class).read(name).state());
        for (Paste paste : held) {
            Paste row = world.row(paste.shortCode());
            assertEquals(PasteStatus.PROCESSED, row.status(), row.shortCode());
        }
        assertTrue(drained.compareTo(HOLD.dividedBy(2)) < 0, "released, not back at the hold's end: " + drained);
        for (Paste paste : held) {
            assertEquals(
                    0,
                    world.update(
                            "UPDATE pastes SET status = status WHERE short_code = ? AND held_receipt_handle IS NOT NULL",
                            paste.shortCode()),
                    "released and stored: no handle left on " + paste.shortCode());
        }
    }

    private boolean allProcessed(List<Paste> pastes) {
        return pastes.stream().allMatch(p -> world.row(p.shortCode()).status() == PasteStatus.PROCESSED);
    }

    private Message receiveOnly() {
        List<Message> messages = world.mapping.receive(1, 5);
        assertEquals(1, messages.size());
        return messages.getFirst();
    }
}
