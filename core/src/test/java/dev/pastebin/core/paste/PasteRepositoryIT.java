package dev.pastebin.core.paste;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

@RealServices
@MicronautTest(transactional = false)
class PasteRepositoryIT {

    @Inject
    PasteRepository repository;

    @Inject
    ShortCodes shortCodes;

    @Inject
    DataSource dataSource;

    private Paste newPaste() {
        return repository.save(TestPastes.inProgress(shortCodes.next(), null, "a".repeat(64), 42));
    }

    private Paste reload(Paste paste) {
        return repository.findById(paste.shortCode()).orElseThrow();
    }

    @Test
    void aNewPasteIsInProgressWithTimestampsAndNoLocation() {
        Paste saved = repository.save(TestPastes.inProgress(shortCodes.next(), "user-1", "b".repeat(64), 7));
        Paste row = reload(saved);
        assertEquals(PasteStatus.IN_PROGRESS, row.status());
        assertEquals("user-1", row.userId());
        assertEquals(7, row.sizeBytes());
        assertNull(row.s3Location());
        assertNotNull(row.createdAt());
        assertNotNull(row.updatedAt());
    }

    @Test
    void aDuplicateShortCodeIsRejectedByThePrimaryKey() {
        Paste first = newPaste();
        assertThrows(
                DataAccessException.class,
                () -> repository.save(TestPastes.inProgress(first.shortCode(), null, "c".repeat(64), 1)));
    }

    @Test
    void inProgressMovesToProcessedOnceWithItsLocation() {
        Paste paste = newPaste();
        assertEquals(1, repository.markProcessed(paste.shortCode(), "s3://bucket/pastes/" + paste.shortCode()));
        Paste row = reload(paste);
        assertEquals(PasteStatus.PROCESSED, row.status());
        assertEquals("s3://bucket/pastes/" + paste.shortCode(), row.s3Location());
        assertTrue(!row.updatedAt().isBefore(row.createdAt()));
    }

    @Test
    void inProgressMovesToFailedOnceWithItsReason() {
        Paste paste = newPaste();
        assertEquals(1, repository.markFailed(paste.shortCode(), "permanent: AccessDenied"));
        Paste row = reload(paste);
        assertEquals(PasteStatus.FAILED, row.status());
        assertEquals("permanent: AccessDenied", row.failureReason());
        assertNull(row.s3Location());
    }

    @Test
    void terminalRowsNeverMove() {
        Paste processed = newPaste();
        repository.markProcessed(processed.shortCode(), "s3://b/k");
        Paste failed = newPaste();
        repository.markFailed(failed.shortCode(), "exhausted");
        Paste processedBefore = reload(processed);
        Paste failedBefore = reload(failed);

        assertEquals(0, repository.markProcessed(processed.shortCode(), "s3://b/other"));
        assertEquals(0, repository.markFailed(processed.shortCode(), "late failure"));
        assertEquals(0, repository.markProcessed(failed.shortCode(), "s3://b/k"));
        assertEquals(0, repository.markFailed(failed.shortCode(), "again"));

        assertEquals(processedBefore, reload(processed));
        assertEquals(failedBefore, reload(failed));
    }

    /** Written once, by the first hold, and only on an IN_PROGRESS row; it leaves updated_at alone. */
    @Test
    void theFirstHoldIsNotedOnceAndOnlyWhileInProgress() {
        Paste paste = newPaste();
        assertNull(paste.firstHeldAt());
        Instant first = Instant.parse("2026-11-23T10:00:00Z");

        assertEquals(1, repository.recordFirstHold(paste.shortCode(), first));
        assertEquals(
                0,
                repository.recordFirstHold(paste.shortCode(), first.plusSeconds(60)),
                "a later hold keeps the first");
        Paste held = reload(paste);
        assertEquals(first, held.firstHeldAt());
        assertEquals(reload(paste).updatedAt(), held.updatedAt());

        Paste failed = newPaste();
        repository.markFailed(failed.shortCode(), "permanent");
        assertEquals(0, repository.recordFirstHold(failed.shortCode(), first));
        assertNull(reload(failed).firstHeldAt());
    }

    @Test
    void transitionsOfAnUnknownCodeChangeNothing() {
        assertEquals(0, repository.markProcessed("nosuchcode", "s3://b/k"));
        assertEquals(0, repository.markFailed("nosuchcode", "x"));
    }

    @Test
    void theDatabaseRejectsAStatusOutsideTheStateMachine() throws SQLException {
        Paste paste = newPaste();
        try (var connection = DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
                var update = connection.prepareStatement("UPDATE pastes SET status = 'DELETED' WHERE short_code = ?")) {
            update.setString(1, paste.shortCode());
            var e = assertThrows(SQLException.class, update::executeUpdate);
            assertEquals("23514", e.getSQLState(), "check_violation");
        }
        try (var connection = DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
                var update =
                        connection.prepareStatement("UPDATE pastes SET status = 'PROCESSED' WHERE short_code = ?")) {
            update.setString(1, paste.shortCode());
            var e = assertThrows(SQLException.class, update::executeUpdate, "PROCESSED needs a location");
            assertEquals("23514", e.getSQLState());
        }
        assertEquals(PasteStatus.IN_PROGRESS, reload(paste).status());
    }

    /** PROCESSED and FAILED raced on the same row, 50 times per repetition: exactly one wins every time. */
    @RepeatedTest(4)
    void concurrentTransitionsHaveExactlyOneWinner() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 50; round++) {
                Paste paste = newPaste();
                var barrier = new CyclicBarrier(2);
                Callable<Integer> toProcessed = () -> {
                    barrier.await();
                    return repository.markProcessed(paste.shortCode(), "s3://b/" + paste.shortCode());
                };
                Callable<Integer> toFailed = () -> {
                    barrier.await();
                    return repository.markFailed(paste.shortCode(), "raced");
                };
                var results = new ArrayList<Future<Integer>>();
                results.add(pool.submit(toProcessed));
                results.add(pool.submit(toFailed));
                int processedWins = results.get(0).get();
                int failedWins = results.get(1).get();

                assertEquals(1, processedWins + failedWins, "exactly one transition applies");
                PasteStatus expected = processedWins == 1 ? PasteStatus.PROCESSED : PasteStatus.FAILED;
                assertEquals(expected, reload(paste).status());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
