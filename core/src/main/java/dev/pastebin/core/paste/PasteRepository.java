package dev.pastebin.core.paste;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Persistence of pastes. Every state transition is one guarded UPDATE that only moves an IN_PROGRESS row
 * and returns the number of rows it changed: 0 means the row was already terminal (or absent), and the
 * caller decides what that means. Nothing here can move a row out of PROCESSED or FAILED; deleting, expiring
 * and revealing a read-once paste remove the row instead (docs/design.md, "Deleting, expiring and reading once").
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface PasteRepository extends GenericRepository<Paste, String> {

    /** Inserts a new row; a duplicate short code raises a {@code DataAccessException} (unique violation). */
    Paste save(Paste paste);

    Optional<Paste> findById(String shortCode);

    @Query("""
            UPDATE pastes SET status = 'PROCESSED', s3_location = :s3Location, failure_reason = NULL,
                held_receipt_handle = NULL, held_until = NULL, updated_at = now()
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'""")
    int markProcessed(String shortCode, String s3Location);

    /** Counts one real S3 attempt of the paste's upload (the attempt budget's unit). */
    @Query("""
            UPDATE pastes SET upload_attempts = upload_attempts + 1, updated_at = now()
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'""")
    int recordUploadAttempt(String shortCode);

    /**
     * Notes when the open breaker first held the paste's upload; a later hold keeps the first (a no-op, 0).
     * Not a transition: {@code updated_at} stays when the row last changed state or spent an attempt.
     */
    @Query("""
            UPDATE pastes SET first_held_at = :heldAt
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS' AND first_held_at IS NULL""")
    int recordFirstHold(String shortCode, Instant heldAt);

    @Query("""
            UPDATE pastes SET status = 'FAILED', failure_reason = left(:reason, 1024),
                held_receipt_handle = NULL, held_until = NULL, updated_at = now()
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'""")
    int markFailed(String shortCode, String reason);

    /**
     * The compensation of a sender of the paste's job whose send failed (docs/design.md, "Idempotent create"). The
     * senders are the create and each replay that found the paste IN_PROGRESS: 1 + the replays' tokens, since a
     * replay adds its token before it sends. This counts the failure and, when every sender's send has failed, marks
     * the row FAILED in the same statement: no job exists for it. While a send is still to fail or has succeeded,
     * the row stays IN_PROGRESS for that job.
     *
     * @return true when this call failed the row; false when it stays IN_PROGRESS; empty when it was no longer
     *     IN_PROGRESS (or is gone)
     */
    @Query("""
            UPDATE pastes SET job_send_failures = job_send_failures + 1,
                status = CASE WHEN job_send_failures + 1 >= 1 + cardinality(replay_delete_token_sha256s)
                    THEN 'FAILED' ELSE status END,
                failure_reason = CASE WHEN job_send_failures + 1 >= 1 + cardinality(replay_delete_token_sha256s)
                    THEN left(:reason, 1024) ELSE failure_reason END,
                updated_at = CASE WHEN job_send_failures + 1 >= 1 + cardinality(replay_delete_token_sha256s)
                    THEN now() ELSE updated_at END
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'
            RETURNING status = 'FAILED'""")
    Optional<Boolean> countJobSendFailure(String shortCode, String reason);

    /**
     * The row, locked until the caller's transaction ends: concurrent reveals of a read-once paste queue up
     * behind the first, which removes the row, so the next ones find nothing (docs/design.md, "Reading once").
     */
    @Query("SELECT * FROM pastes WHERE short_code = :shortCode FOR UPDATE")
    Optional<Paste> findByIdForUpdate(String shortCode);

    /**
     * Adds a deletion token to a live paste (an idempotent replay of its create), next to the ones it has: every
     * token a create or its replays answered stays valid. At most {@code maxReplays} are kept, so a client replaying
     * one key cannot grow the row (each UPDATE rewrites the whole array). 0 when the paste is gone, expired or
     * FAILED, or already holds {@code maxReplays} replay tokens.
     */
    @Query("""
            UPDATE pastes SET replay_delete_token_sha256s = array_append(replay_delete_token_sha256s,
                    CAST(:deleteTokenSha256 AS TEXT)), updated_at = now()
            WHERE short_code = :shortCode AND status <> 'FAILED' AND (expires_at IS NULL OR expires_at > now())
              AND cardinality(replay_delete_token_sha256s) < :maxReplays""")
    int addDeleteToken(String shortCode, String deleteTokenSha256, int maxReplays);

    /**
     * Removes the row whatever its state, if {@code deleteTokenSha256} is the hash of any token its create or
     * a replay of it answered; 0 otherwise (a wrong token, or the row is gone).
     */
    @Query("""
            DELETE FROM pastes WHERE short_code = :shortCode
            AND (delete_token_sha256 = :deleteTokenSha256 OR CAST(:deleteTokenSha256 AS TEXT) = ANY(replay_delete_token_sha256s))""")
    int deleteWithToken(String shortCode, String deleteTokenSha256);

    /**
     * Removes a row still IN_PROGRESS (the upload worker's refusal of blocklisted content); 0 when it is gone or
     * terminal by now.
     */
    @Query("DELETE FROM pastes WHERE short_code = :shortCode AND status = 'IN_PROGRESS'")
    int removeInProgress(String shortCode);

    /**
     * Burns a read-once large paste at its reveal (docs/design.md, "Reading once"): it expires now, so every route
     * answers 404 from the commit on, while the row, which names its files, stays for the sweeper to delete with them
     * once the links the reveal answered have expired. 0 when it is no longer a PROCESSED read-once paste that has
     * not expired.
     */
    @Query("""
            UPDATE pastes SET expires_at = now(), updated_at = now()
            WHERE short_code = :shortCode AND status = 'PROCESSED' AND read_once
                AND (expires_at IS NULL OR expires_at > now())""")
    int burn(String shortCode);

    /** Removes a row the caller holds locked (a revealed read-once paste, a takedown). */
    @Query("DELETE FROM pastes WHERE short_code = :shortCode")
    int remove(String shortCode);

    /**
     * The rows holding this content, locked until the caller's transaction ends, at most {@code limit} of them, in
     * the order of their codes: every takedown locks a content's copies in the same order, so two at once wait for
     * each other and never deadlock (index pastes_content_sha256).
     */
    @Query("""
            SELECT * FROM pastes WHERE content_sha256 = :contentSha256 ORDER BY short_code LIMIT :limit FOR UPDATE""")
    List<Paste> findByContentSha256ForUpdate(String contentSha256, int limit);

    /** The codes of the rows holding this content, at most {@code limit} of them, in order (not locked). */
    @Query("SELECT short_code FROM pastes WHERE content_sha256 = :contentSha256 ORDER BY short_code LIMIT :limit")
    List<String> findCodesByContentSha256(String contentSha256, int limit);

    /**
     * The client's other pastes still waiting for their upload (queued, delayed, in flight or held): the backlog the
     * upload fairness delay counts (docs/design.md, "Fair to every client"). The status is a literal, so that the
     * partial index over IN_PROGRESS rows by client (pastes_in_progress_by_upload_group) serves it.
     */
    @Query("""
            SELECT count(*) FROM pastes
            WHERE upload_group = :uploadGroup AND status = 'IN_PROGRESS' AND upload_group IS NOT NULL
                AND short_code <> :shortCode""")
    long countPendingUploads(String uploadGroup, String shortCode);
}
