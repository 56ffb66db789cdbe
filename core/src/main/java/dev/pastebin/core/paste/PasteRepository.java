package dev.pastebin.core.paste;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import java.util.Optional;

/**
 * Persistence of pastes. Every state transition is one guarded UPDATE that only moves an IN_PROGRESS row
 * and returns the number of rows it changed: 0 means the row was already terminal (or absent), and the
 * caller decides what that means. Nothing here can move a row out of PROCESSED or FAILED.
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface PasteRepository extends GenericRepository<Paste, String> {

    /** Inserts a new row; a duplicate short code raises a {@code DataAccessException} (unique violation). */
    Paste save(Paste paste);

    Optional<Paste> findById(String shortCode);

    @Query("""
            UPDATE pastes SET status = 'PROCESSED', s3_location = :s3Location, failure_reason = NULL, updated_at = now()
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'""")
    int markProcessed(String shortCode, String s3Location);

    /** Counts one real S3 attempt of the paste's upload (the attempt budget's unit). */
    @Query("""
            UPDATE pastes SET upload_attempts = upload_attempts + 1, updated_at = now()
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'""")
    int recordUploadAttempt(String shortCode);

    @Query("""
            UPDATE pastes SET status = 'FAILED', failure_reason = left(:reason, 1024), updated_at = now()
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'""")
    int markFailed(String shortCode, String reason);
}
