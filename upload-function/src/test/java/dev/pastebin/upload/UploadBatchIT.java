package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.faults.FaultProxy.Fault;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/** One invocation with a full batch of 10 mixed records: exactly the ones to retry are reported. */
@RealServices
class UploadBatchIT {

    /** A fresh world per test, closed after it (JUnit closes a non-null {@code @AutoClose} field). */
    @AutoClose
    private UploadWorld world;

    @Test
    void aBatchOfTenReportsExactlyTheRecordsToRetry() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        var content = new HashMap<String, byte[]>();
        var ok = new ArrayList<Paste>();
        for (int i = 0; i < 3; i++) {
            ok.add(paste("fine " + i, content));
        }
        Paste flaky1 = paste("500 once", content);
        Paste flaky2 = paste("500 once, too", content);
        Paste slow = paste("S3 hangs", content);
        Paste denied = paste("no permission", content);
        Paste done = paste("already processed", content);
        world.repository.markProcessed(done.shortCode(), "s3://" + world.bucket + "/pastes/" + done.shortCode());
        Paste doneBefore = world.row(done.shortCode());
        byte[] tampered = UploadWorld.content("not what was posted");
        Paste corrupt = world.repository.save(TestPastes.inProgress(
                world.shortCodes.next(), null, ContentHash.sha256Hex(UploadWorld.content("what was posted")), 15));

        world.proxy.failPuts(flaky1.shortCode(), Fault.INTERNAL_ERROR_500);
        world.proxy.failPuts(flaky2.shortCode(), Fault.SLOW_DOWN_503);
        world.proxy.failPuts(slow.shortCode(), Fault.HANG);
        world.proxy.alwaysFailPuts(denied.shortCode(), Fault.ACCESS_DENIED_403);

        for (Paste paste : List.of(ok.get(0), ok.get(1), ok.get(2), flaky1, flaky2, slow, denied, done)) {
            world.sendJob(paste, content.get(paste.shortCode()));
        }
        world.sendBody(world.codec.encode(new UploadJob(corrupt.shortCode(), corrupt.contentSha256(), tampered)));
        String poison = world.sendBody("this is not an upload job");

        List<Message> batch = receiveTen();
        SQSBatchResponse response = world.mapping.invoke(batch);

        Set<String> reported = response.getBatchItemFailures().stream()
                .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .collect(Collectors.toSet());
        Set<String> expected = batch.stream()
                .filter(m -> m.messageId().equals(poison)
                        || List.of(flaky1, flaky2, slow).stream()
                                .anyMatch(p -> m.body().contains(p.shortCode())))
                .map(Message::messageId)
                .collect(Collectors.toSet());
        assertEquals(4, expected.size());
        assertEquals(expected, reported);

        for (Paste paste : ok) {
            assertEquals(PasteStatus.PROCESSED, world.row(paste.shortCode()).status());
            assertArrayEquals(
                    content.get(paste.shortCode()),
                    world.object(paste.shortCode()).orElseThrow().asByteArray());
        }
        for (Paste paste : List.of(flaky1, flaky2, slow)) {
            assertEquals(PasteStatus.IN_PROGRESS, world.row(paste.shortCode()).status());
        }
        assertEquals(
                "SERVER_ERROR",
                world.deliveries.of(flaky1.shortCode()).getFirst().errorClass());
        assertEquals(
                "THROTTLING", world.deliveries.of(flaky2.shortCode()).getFirst().errorClass());
        assertEquals("TIMEOUT", world.deliveries.of(slow.shortCode()).getFirst().errorClass());
        Paste deniedRow = world.row(denied.shortCode());
        assertEquals(PasteStatus.FAILED, deniedRow.status());
        assertTrue(deniedRow.failureReason().startsWith("permanent: ACCESS_DENIED: "), deniedRow.failureReason());
        assertEquals(doneBefore, world.row(done.shortCode()));
        assertEquals(
                "duplicate", world.deliveries.of(done.shortCode()).getFirst().outcome());
        Paste corruptRow = world.row(corrupt.shortCode());
        assertEquals(PasteStatus.FAILED, corruptRow.status());
        assertTrue(corruptRow.failureReason().startsWith("permanent: INTEGRITY: "), corruptRow.failureReason());
        assertEquals(0, world.proxy.putCount(corrupt.shortCode()), "a mismatch never reaches S3");
        assertTrue(world.object(corrupt.shortCode()).isEmpty());

        // The mapping deleted the six acknowledged messages; the four reported ones are still queued.
        assertEquals(4, world.mapping.messagesInQueue());
    }

    private Paste paste(String text, Map<String, byte[]> content) {
        byte[] bytes = UploadWorld.content(text);
        Paste paste = world.newPaste(bytes);
        content.put(paste.shortCode(), bytes);
        return paste;
    }

    private List<Message> receiveTen() {
        var messages = new ArrayList<Message>();
        Instant deadline = Instant.now().plusSeconds(15);
        while (messages.size() < 10 && Instant.now().isBefore(deadline)) {
            messages.addAll(world.mapping.receive(10 - messages.size(), 1));
        }
        assertEquals(10, messages.size(), "one batch of ten");
        return messages;
    }
}
