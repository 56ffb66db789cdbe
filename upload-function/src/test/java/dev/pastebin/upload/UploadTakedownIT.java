package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.moderation.Takedown;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.faults.FaultProxy.Fault;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.transaction.TransactionOperations;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Moderation meets the upload worker (docs/design.md, "Takedowns and the blocklist"), with real SQS deliveries, S3
 * behind the fault proxy and PostgreSQL: a takedown of a paste whose job is still in flight wins, and a job already
 * queued when its content is blocklisted is refused without a PUT.
 */
@RealServices
@OwnDatabase("upload_takedown")
class UploadTakedownIT {

    @AutoClose
    private UploadWorld world;

    private static byte[] unique(String text) {
        return UploadWorld.content(text + " " + UUID.randomUUID());
    }

    /**
     * What the operator's takedown commits first (ModerationService, in moderation-function), before it deletes any
     * object: in one transaction the row removed whatever its state, the tombstone that makes every read route answer
     * 451 (TakenDownReadIT), the content blocklisted (the audit entry is left out here). The takedown itself, through
     * the moderation function's handler while S3 is down, with this worker delivering the job afterwards, is
     * TakedownDuringS3OutageIT (module tools/chaos).
     */
    private void takeDown(Paste paste) {
        @SuppressWarnings("unchecked") // the context's one TransactionOperations is the JDBC one
        TransactionOperations<Connection> transactions = world.context.getBean(TransactionOperations.class);
        transactions.executeWrite(status -> {
            assertEquals(1, world.repository.remove(paste.shortCode()));
            world.context
                    .getBean(TakedownRepository.class)
                    .save(Takedown.of(
                            paste.shortCode(),
                            "court order",
                            "arn:aws:iam::000000000000:user/operator",
                            paste.contentSha256(),
                            paste.sizeBytes()));
            world.context
                    .getBean(ContentBlocklist.class)
                    .add(paste.contentSha256(), "court order", "arn:aws:iam::000000000000:user/operator");
            return null;
        });
    }

    private boolean tombstoned(String code) {
        return world.context.getBean(TakedownRepository.class).existsById(code);
    }

    private List<String> outcomes(String code) {
        return world.deliveries.of(code).stream()
                .map(DeliveryLines.Line::outcome)
                .toList();
    }

    /** The audit entries of a code: action, actor, sha256, size. */
    private List<List<Object>> audit(String code) throws SQLException {
        DataSource dataSource = DelegatingDataSource.unwrapDataSource(world.context.getBean(DataSource.class));
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT action, actor, content_sha256, content_size FROM moderation_audit WHERE short_code = ?")) {
            select.setString(1, code);
            try (ResultSet rows = select.executeQuery()) {
                List<List<Object>> entries = new java.util.ArrayList<>();
                while (rows.next()) {
                    entries.add(List.of(rows.getString(1), rows.getString(2), rows.getString(3), rows.getInt(4)));
                }
                return entries;
            }
        }
    }

    /**
     * The job's first PUT fails (S3 outage) and the job waits for its retry; the takedown runs meanwhile; S3
     * recovers and the job is delivered again: it finds no row, stores nothing and is acknowledged. No object, no
     * row, the tombstone stays (still 451).
     */
    @Test
    void aTakedownOfAPasteStillBeingStoredWinsOverItsUploadJob() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = unique("taken down while S3 is failing");
        Paste paste = world.newPaste(content);
        String code = paste.shortCode();
        world.proxy.outage(Fault.INTERNAL_ERROR_500);
        try {
            world.sendJob(paste, content);
            world.mapping.runUntil(
                    () -> world.proxy.putCount(code) == 1, "the first PUT, failed", Duration.ofSeconds(30));
            assertEquals(List.of("transient"), outcomes(code), "the job is in flight, waiting for its retry");

            takeDown(paste);
        } finally {
            world.proxy.recover();
        }
        world.mapping.runUntilEmpty(Duration.ofSeconds(40));

        assertEquals(List.of("transient", "removed"), outcomes(code));
        assertEquals(1, world.proxy.putCount(code), "no PUT after the takedown");
        assertTrue(world.object(code).isEmpty(), "no object");
        assertTrue(world.repository.findById(code).isEmpty(), "no row");
        assertTrue(tombstoned(code), "still taken down: every read route answers 451");
        assertEquals(0, world.deadLetterDepth());
    }

    /**
     * A job queued before its content was blocklisted: no PUT, the row removed, a tombstone and an
     * {@code upload-refused} audit entry by the worker, the job acknowledged (not redelivered, not dead-lettered).
     */
    @Test
    void anAlreadyQueuedJobWhoseContentIsBlocklistedIsRefusedWithoutAPut() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = unique("blocklisted while its job waits in the queue");
        Paste paste = world.newPaste(content);
        String code = paste.shortCode();
        world.sendJob(paste, content);
        world.context
                .getBean(ContentBlocklist.class)
                .add(paste.contentSha256(), "known abuse", "arn:aws:iam::000000000000:user/operator");

        world.mapping.runUntilEmpty(Duration.ofSeconds(30));

        assertEquals(List.of("removed"), outcomes(code));
        assertEquals(0, world.proxy.putCount(code), "no PUT");
        assertTrue(world.object(code).isEmpty(), "no object");
        assertTrue(world.repository.findById(code).isEmpty(), "row removed");
        assertTrue(tombstoned(code), "tombstone: its code answers 451");
        assertEquals(
                List.of(List.of(
                        "upload-refused", BlockedContentRefusal.ACTOR, paste.contentSha256(), paste.sizeBytes())),
                audit(code));
        assertEquals(0, world.deadLetterDepth());
    }
}
