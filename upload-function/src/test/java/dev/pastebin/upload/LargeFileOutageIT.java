package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.faults.FaultProxy.Fault;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * S3 failing while a large paste's file is verified (docs/design.md, "Large files: straight to S3"): the file has
 * arrived in staging/, its notification reaches the upload function, and every S3 call of the verification (the
 * HeadObject, the CopyObject to files/) answers 500 through the fault proxy in front of LocalStack. The worker treats
 * it as any S3 failure: transient attempts on the backoff schedule, then the breaker opens and holds the job; the
 * paste stays IN_PROGRESS (a read answers 202) and nothing reaches files/. Once S3 answers again the probe closes
 * the breaker, the held job comes back, and the paste is PROCESSED with the file's exact bytes.
 */
@RealServices
class LargeFileOutageIT {

    private static final Duration WITHIN = Duration.ofSeconds(60);

    private UploadWorld world;
    private PasteFileRepository files;
    private StagedUploads uploads;
    private String breaker;

    @BeforeEach
    void start() throws Exception {
        breaker = "large-outage-" + System.nanoTime() % 100_000;
        Map<String, Object> settings = new HashMap<>();
        settings.put("pastebin.breaker.enabled", true);
        settings.put("pastebin.breaker.name", breaker);
        // Time compressed as in UploadOutageIT: retries at most 2 s apart, the breaker opens on three failed calls
        // (one paste makes few), probes every 1 s to 2 s, and waiting jobs come back within 1 s to 3 s.
        settings.put("pastebin.delivery.max-delay", "2s");
        settings.put("pastebin.breaker.minimum-calls", 3);
        settings.put("pastebin.breaker.cooldown", "1s");
        settings.put("pastebin.breaker.max-cooldown", "2s");
        settings.put("pastebin.delivery.hold-at-least", "1s");
        settings.put("pastebin.delivery.hold-jitter", "0s");
        settings.put("pastebin.delivery.max-hold", "3s");
        settings.put("pastebin.delivery.hold-limit", "10m"); // within the test queue's 1000 receives
        world = UploadWorld.start(1000, 30, settings);
        world.notifyOfStagedFiles();
        files = world.context.getBean(PasteFileRepository.class);
        uploads = new StagedUploads(world);
    }

    @AfterEach
    void stop() {
        world.close();
    }

    @Test
    void s3FailingDuringTheVerificationHoldsThePasteAndTheFileIsStoredOnceS3Recovers() throws Exception {
        byte[] content = "written while S3 failed: äöü 🌍\n".repeat(2000).getBytes(StandardCharsets.UTF_8);
        String code = world.shortCodes.next();
        world.repository.save(TestPastes.inProgress(code, "it-user", "e".repeat(64), content.length));
        PasteFile file = files.save(
                PasteFile.staged(code, 0, "outage.txt", content.length, ContentHash.sha256Hex(content), "text/plain"));
        world.proxy.outage(Fault.INTERNAL_ERROR_500); // object PUTs: the CopyObject to files/
        world.proxy.failHeads(Fault.INTERNAL_ERROR_500); // the HeadObject of the staged file

        // the client's PUT goes to S3 itself, which is up for it: only the function's calls fail
        assertEquals(200, uploads.put(file, content).statusCode());
        // its fast attempts spent, then three deliveries that wait (held by the open breaker, or slow: a failed probe,
        // the one job being the breaker's only caller): the paste waits, it does not fail
        world.mapping.runUntil(() -> waited(code) >= 3, "three waiting deliveries", WITHIN);
        BreakerStore breakers = world.context.getBean(BreakerStore.class);
        assertTrue(breakers.read(breaker).state() != BreakerState.CLOSED, "the breaker opened");
        List<DeliveryLines.Line> failing = world.deliveries.of(code);
        assertEquals("transient", failing.getFirst().outcome(), "first retried as any S3 failure: " + failing);
        assertEquals(500, failing.getFirst().s3Status());
        assertTrue(
                List.of("transient", "slow", "held").containsAll(outcomes(code)),
                "only the outcomes of an S3 failure: " + failing);

        Paste held = world.row(code);
        // the row alone decides a read: IN_PROGRESS is 202 for a large paste too (LargeFileReadIT), its Retry-After
        // the hold's (ReadWhileBreakerOpenIT)
        assertEquals(PasteStatus.IN_PROGRESS, held.status(), "a read answers 202 while it is held");
        assertNull(held.failureReason());
        assertTrue(held.uploadAttempts() >= 1, "the failed calls were counted as the paste's S3 attempts");
        assertFalse(verified(file));
        assertEquals(List.of(), keysUnder("files/" + code + "/"), "nothing reaches files/ while S3 fails");
        assertEquals(List.of("staging/" + file.fileId()), keysUnder("staging/" + code + "/"), "the upload is kept");

        world.proxy.recover();
        world.mapping.runUntil(
                () -> world.row(code).status() == PasteStatus.PROCESSED, "the paste PROCESSED after recovery", WITHIN);

        assertTrue(verified(file));
        assertEquals(
                "s3://" + world.bucket + "/files/" + code + "/", world.row(code).s3Location());
        assertArrayEquals(
                content,
                UploadWorld.S3
                        .getObjectAsBytes(b -> b.bucket(world.bucket).key("files/" + file.fileId()))
                        .asByteArray(),
                "the file reads back byte for byte");
        assertThrows(
                NoSuchKeyException.class,
                () -> UploadWorld.S3.headObject(b -> b.bucket(world.bucket).key("staging/" + file.fileId())),
                "the staged object is deleted once moved");
        assertEquals(BreakerState.CLOSED, breakers.read(breaker).state());
        world.mapping.runUntilEmpty(WITHIN);
        assertEquals(0, world.deadLetterDepth());
    }

    private List<String> outcomes(String code) {
        return world.deliveries.of(code).stream()
                .map(DeliveryLines.Line::outcome)
                .toList();
    }

    /** Deliveries of the paste that waited: past the fast schedule (slow) or held by the open breaker. */
    private long waited(String code) {
        return outcomes(code).stream()
                .filter(o -> o.equals("slow") || o.equals("held"))
                .count();
    }

    private boolean verified(PasteFile file) {
        return files.findById(file.fileId()).orElseThrow().verified();
    }

    private List<String> keysUnder(String prefix) {
        return UploadWorld.S3.listObjectsV2(b -> b.bucket(world.bucket).prefix(prefix)).contents().stream()
                .map(o -> o.key())
                .toList();
    }
}
