package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.faults.FaultProxy.Fault;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/** At-least-once delivery: duplicates, a crash between PutObject and the update, poison, running out of time. */
@RealServices
class UploadDeliveryIT {

    /** A fresh world per test, closed after it (JUnit closes a non-null {@code @AutoClose} field). */
    @AutoClose
    private UploadWorld world;

    @Test
    void theSameJobDeliveredTwiceLeavesOneObjectAndAnUnchangedRow() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = UploadWorld.content("delivered twice");
        Paste paste = world.newPaste(content);
        String first = world.sendJob(paste, content);
        world.mapping.runUntilEmpty(Duration.ofSeconds(20));
        Paste processed = world.row(paste.shortCode());
        assertEquals(PasteStatus.PROCESSED, processed.status());

        String second = world.sendJob(paste, content);
        world.mapping.runUntilEmpty(Duration.ofSeconds(20));

        assertEquals(processed, world.row(paste.shortCode()), "the duplicate changed nothing, not even updated_at");
        assertEquals(1, world.proxy.putCount(paste.shortCode()), "the duplicate did not upload again");
        assertEquals(1, world.objectCount());
        assertFalse(world.mapping.deliveriesOf(first).getFirst().reported(), "acknowledged");
        assertFalse(world.mapping.deliveriesOf(second).getFirst().reported(), "a duplicate is success, not an error");
        assertEquals(
                List.of("success", "duplicate"),
                world.deliveries.of(paste.shortCode()).stream()
                        .map(DeliveryLines.Line::outcome)
                        .toList());
    }

    @Test
    void twoCopiesInOneBatchRaceToOneProcessedRow() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = UploadWorld.content("two copies at once");
        Paste paste = world.newPaste(content);
        world.sendJob(paste, content);
        world.sendJob(paste, content);
        List<Message> both = receiveExactly(2);

        SQSBatchResponse response = world.mapping.invoke(both);

        assertTrue(response.getBatchItemFailures().isEmpty(), "both acknowledged");
        assertEquals(PasteStatus.PROCESSED, world.row(paste.shortCode()).status());
        assertArrayEquals(content, world.object(paste.shortCode()).orElseThrow().asByteArray());
        assertEquals(1, world.objectCount());
        assertEquals(
                Set.of("success", "duplicate"),
                world.deliveries.of(paste.shortCode()).stream()
                        .map(DeliveryLines.Line::outcome)
                        .collect(Collectors.toSet()));
        assertTrue(world.mapping.isEmpty());
    }

    /**
     * The state a crash between PutObject and the update leaves behind (object stored, row IN_PROGRESS),
     * produced honestly: the test holds a row lock, so the worker's guarded UPDATE hits the configured
     * lock_timeout after its PutObject succeeded. The redelivery uploads the same bytes again and ends PROCESSED.
     */
    @Test
    void aFailureAfterPutObjectBeforeTheUpdateEndsProcessedOnRedelivery() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = UploadWorld.content("stored, but not yet recorded");
        Paste paste = world.newPaste(content);
        String messageId = world.sendJob(paste, content);

        try (Connection locker = DriverManager.getConnection(
                env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin"),
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"))) {
            locker.setAutoCommit(false);
            try (var lock = locker.prepareStatement("SELECT short_code FROM pastes WHERE short_code = ? FOR UPDATE")) {
                lock.setString(1, paste.shortCode());
                lock.executeQuery().close();
            }
            SQSBatchResponse response = world.mapping.invoke(receiveExactly(1));

            assertEquals(
                    List.of(messageId),
                    response.getBatchItemFailures().stream()
                            .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                            .toList());
            assertTrue(world.object(paste.shortCode()).isPresent(), "PutObject had succeeded");
            assertEquals(PasteStatus.IN_PROGRESS, world.row(paste.shortCode()).status());
            DeliveryLines.Line line = world.deliveries.of(paste.shortCode()).getFirst();
            assertEquals("transient", line.outcome());
            assertEquals("DATABASE", line.errorClass());
            locker.commit();
        }

        world.mapping.runUntilEmpty(Duration.ofSeconds(20));

        Paste row = world.row(paste.shortCode());
        assertEquals(PasteStatus.PROCESSED, row.status());
        assertEquals("s3://" + world.bucket + "/pastes/" + paste.shortCode(), row.s3Location());
        assertArrayEquals(content, world.object(paste.shortCode()).orElseThrow().asByteArray());
        assertEquals(2, world.proxy.putCount(paste.shortCode()));
        assertEquals(
                List.of("transient", "success"),
                world.deliveries.of(paste.shortCode()).stream()
                        .map(DeliveryLines.Line::outcome)
                        .toList());
    }

    @Test
    void poisonMessagesEndInTheDeadLetterQueue() throws Exception {
        // A short redrive keeps the test short; the function's startup check still holds (3 > 2).
        world = UploadWorld.start(3, 30, Map.of("pastebin.delivery.max-attempts", "2"));
        String garbage = "{\"version\":1,\"shortCode\":\"abc\"";
        String garbageId = world.sendBody(garbage);

        var dead = new ArrayList<Message>();
        Instant deadline = Instant.now().plusSeconds(30);
        while (dead.isEmpty() && Instant.now().isBefore(deadline)) {
            List<Message> messages = world.mapping.receive(10, 1);
            if (!messages.isEmpty()) {
                world.mapping.invoke(messages);
            }
            dead.addAll(UploadWorld.SQS
                    .receiveMessage(b -> b.queueUrl(world.queues.deadLetterQueueUrl())
                            .waitTimeSeconds(0)
                            .maxNumberOfMessages(10))
                    .messages());
        }

        assertEquals(
                List.of(garbage),
                dead.stream().map(Message::body).toList(),
                "in the DLQ; deliveries " + world.mapping.deliveriesOf(garbageId));
        var deliveries = world.mapping.deliveriesOf(garbageId);
        assertEquals(3, deliveries.size(), "reported on each of maxReceiveCount deliveries");
        assertTrue(deliveries.stream().allMatch(LambdaQueue.Delivery::reported));
        var lines = world.deliveries.all().stream()
                .filter(l -> l.messageId().equals(garbageId))
                .toList();
        assertEquals(3, lines.size());
        // redelivered on the backoff schedule, not after the queue's 30 s visibility timeout
        assertTrue(
                lines.stream().allMatch(l -> l.outcome().equals("poison") && l.delaySeconds() != null),
                lines.toString());
        assertNull(lines.getFirst().shortCode());
        assertTrue(world.mapping.isEmpty());
    }

    /**
     * A job whose row is gone is for a paste removed since (the row is inserted before the job is sent): its
     * object, stored by a delivery whose PUT landed after the removal, is removed and the job acknowledged, not
     * dead-lettered. While S3 refuses the delete the job comes back on the backoff schedule.
     */
    @Test
    void aJobForARemovedPasteRemovesItsObjectOnceS3AllowsAndIsAcknowledged() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = UploadWorld.content("deleted while its upload was on the way");
        Paste paste = world.newPaste(content);
        UploadWorld.S3.putObject(
                b -> b.bucket(world.bucket).key("pastes/" + paste.shortCode()),
                software.amazon.awssdk.core.sync.RequestBody.fromBytes(content));
        world.repository.remove(paste.shortCode());
        world.proxy.refuseDeletes();
        String messageId = world.sendJob(paste, content);

        SQSBatchResponse refused = world.mapping.invoke(receiveExactly(1));

        assertEquals(
                List.of(messageId),
                refused.getBatchItemFailures().stream()
                        .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                        .toList(),
                "not acknowledged: its object is still there");
        assertTrue(world.object(paste.shortCode()).isPresent());
        DeliveryLines.Line first = world.deliveries.of(paste.shortCode()).getFirst();
        assertEquals("transient", first.outcome());
        assertTrue(
                first.delaySeconds() != null && first.delaySeconds() < 30,
                "backed off, not the 30 s visibility timeout: " + first);

        world.proxy.recover();
        world.mapping.runUntilEmpty(Duration.ofSeconds(20));

        assertTrue(world.object(paste.shortCode()).isEmpty(), "removed");
        assertEquals(
                List.of("transient", "removed"),
                world.deliveries.of(paste.shortCode()).stream()
                        .map(DeliveryLines.Line::outcome)
                        .toList());
        assertFalse(world.mapping.deliveriesOf(messageId).getLast().reported(), "acknowledged");
        assertTrue(
                UploadWorld.SQS
                        .receiveMessage(b ->
                                b.queueUrl(world.queues.deadLetterQueueUrl()).waitTimeSeconds(0))
                        .messages()
                        .isEmpty(),
                "nothing dead-lettered");
    }

    @Test
    void recordsNotStartedBeforeTheTimeMarginAreReportedAndComeBackPromptly() throws Exception {
        // Parallelism 1 and a deadline 3 s past the 5 s margin: the first record is started (unless starting it
        // took the loaded machine 3 s) and takes at least its 6 s S3 timeout (the proxy hangs), so the others
        // find less than the margin left. The two windows are apart by seconds, not by the machine's speed.
        var margin = Duration.ofSeconds(5);
        world = UploadWorld.start(
                10,
                30,
                Map.of(
                        "pastebin.upload.parallelism",
                        "1",
                        "pastebin.upload.remaining-time-margin",
                        "5s",
                        "pastebin.upload.s3-attempt-timeout",
                        "6s",
                        "pastebin.upload.s3-call-timeout",
                        "6s"),
                () -> TestLambdaContext.withRemaining(margin.plusSeconds(3)));
        var pastes = new ArrayList<Paste>();
        for (int i = 0; i < 3; i++) {
            byte[] content = UploadWorld.content("record " + i);
            Paste paste = world.newPaste(content);
            pastes.add(paste);
            world.sendJob(paste, content);
        }
        world.proxy.failPuts(pastes.getFirst().shortCode(), Fault.HANG);
        List<Message> batch = new ArrayList<>(receiveExactly(3));
        String firstCode = pastes.getFirst().shortCode();
        batch.sort(Comparator.comparing((Message m) -> !m.body().contains(firstCode)));

        SQSBatchResponse response = world.mapping.invoke(batch);

        Set<String> reported = response.getBatchItemFailures().stream()
                .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .collect(Collectors.toSet());
        assertEquals(batch.stream().map(Message::messageId).collect(Collectors.toSet()), reported);
        assertEquals("TIMEOUT", world.deliveries.of(firstCode).getFirst().errorClass());
        for (Paste paste : pastes.subList(1, 3)) {
            assertEquals(0, world.proxy.putCount(paste.shortCode()), "not started");
            assertTrue(world.deliveries.of(paste.shortCode()).isEmpty());
        }
        pastes.forEach(p ->
                assertEquals(PasteStatus.IN_PROGRESS, world.row(p.shortCode()).status()));

        // Made visible again at once, not after the queue's 30 s visibility timeout.
        var unstarted = batch.subList(1, 3).stream().map(Message::messageId).collect(Collectors.toSet());
        var back = new HashSet<String>();
        Instant until = Instant.now().plusSeconds(10);
        while (!back.containsAll(unstarted) && Instant.now().isBefore(until)) {
            world.mapping.receive(10, 1).forEach(m -> back.add(m.messageId()));
        }
        assertTrue(back.containsAll(unstarted), "unstarted records came back: " + back);
        assertNull(world.deliveries.of(firstCode).getFirst().s3Status());
    }

    private List<Message> receiveExactly(int count) {
        var messages = new ArrayList<Message>();
        Instant deadline = Instant.now().plusSeconds(15);
        while (messages.size() < count && Instant.now().isBefore(deadline)) {
            messages.addAll(world.mapping.receive(count - messages.size(), 1));
        }
        assertEquals(count, messages.size(), "messages received");
        return messages;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
