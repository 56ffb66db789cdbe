package dev.pastebin.upload;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The repository's contract in memory, for the upload worker's unit tests: the transitions are guarded as
 * the SQL ones are (only an IN_PROGRESS row moves). The real statements are tested in PasteRepositoryIT.
 */
final class InMemoryPasteRepository implements PasteRepository {

    private final Map<String, Paste> rows = new ConcurrentHashMap<>();
    private volatile RuntimeException markFailedFailure;
    private volatile Runnable beforeMarkProcessed = () -> {};

    /** Makes every markFailed throw {@code failure} (the database went away). */
    void failMarkFailedWith(RuntimeException failure) {
        this.markFailedFailure = failure;
    }

    /** Runs {@code action} just before the guarded PROCESSED update: a concurrent delivery's move. */
    void beforeMarkProcessed(Runnable action) {
        this.beforeMarkProcessed = action;
    }

    @Override
    public Paste save(Paste paste) {
        Paste stored = new Paste(
                paste.shortCode(),
                paste.userId(),
                paste.contentSha256(),
                paste.sizeBytes(),
                paste.s3Location(),
                paste.status(),
                paste.failureReason(),
                paste.uploadAttempts(),
                Instant.now(),
                Instant.now(),
                paste.deleteTokenSha256(),
                paste.expiresAt(),
                paste.readOnce(),
                paste.firstHeldAt(),
                paste.language(),
                paste.fileName(),
                paste.uploadGroup());
        if (rows.putIfAbsent(paste.shortCode(), stored) != null) {
            throw new IllegalStateException("duplicate key " + paste.shortCode());
        }
        return stored;
    }

    @Override
    public Optional<Paste> findById(String shortCode) {
        return Optional.ofNullable(rows.get(shortCode));
    }

    @Override
    public int markProcessed(String shortCode, String s3Location) {
        beforeMarkProcessed.run();
        return move(shortCode, PasteStatus.PROCESSED, s3Location, null);
    }

    @Override
    public int recordUploadAttempt(String shortCode) {
        int[] counted = {0};
        rows.computeIfPresent(shortCode, (code, row) -> {
            if (row.status() != PasteStatus.IN_PROGRESS) {
                return row;
            }
            counted[0] = 1;
            return new Paste(
                    code,
                    row.userId(),
                    row.contentSha256(),
                    row.sizeBytes(),
                    row.s3Location(),
                    row.status(),
                    row.failureReason(),
                    row.uploadAttempts() + 1,
                    row.createdAt(),
                    Instant.now(),
                    row.deleteTokenSha256(),
                    row.expiresAt(),
                    row.readOnce(),
                    row.firstHeldAt(),
                    row.language(),
                    row.fileName(),
                    row.uploadGroup());
        });
        return counted[0];
    }

    @Override
    public int recordFirstHold(String shortCode, Instant heldAt) {
        int[] noted = {0};
        rows.computeIfPresent(shortCode, (code, row) -> {
            if (row.status() != PasteStatus.IN_PROGRESS || row.firstHeldAt() != null) {
                return row;
            }
            noted[0] = 1;
            return new Paste(
                    code,
                    row.userId(),
                    row.contentSha256(),
                    row.sizeBytes(),
                    row.s3Location(),
                    row.status(),
                    row.failureReason(),
                    row.uploadAttempts(),
                    row.createdAt(),
                    row.updatedAt(),
                    row.deleteTokenSha256(),
                    row.expiresAt(),
                    row.readOnce(),
                    heldAt,
                    row.language(),
                    row.fileName(),
                    row.uploadGroup());
        });
        return noted[0];
    }

    /** Stores {@code paste} as it is, e.g. one created long ago or with attempts already made. */
    void put(Paste paste) {
        rows.put(paste.shortCode(), paste);
    }

    @Override
    public int markFailed(String shortCode, String reason) {
        if (markFailedFailure != null) {
            throw markFailedFailure;
        }
        return move(shortCode, PasteStatus.FAILED, null, reason);
    }

    private int move(String shortCode, PasteStatus to, String location, String reason) {
        int[] moved = {0};
        rows.computeIfPresent(shortCode, (code, row) -> {
            if (row.status() != PasteStatus.IN_PROGRESS) {
                return row;
            }
            moved[0] = 1;
            return new Paste(
                    code,
                    row.userId(),
                    row.contentSha256(),
                    row.sizeBytes(),
                    location,
                    to,
                    reason,
                    row.uploadAttempts(),
                    row.createdAt(),
                    Instant.now(),
                    row.deleteTokenSha256(),
                    row.expiresAt(),
                    row.readOnce(),
                    row.firstHeldAt(),
                    row.language(),
                    row.fileName(),
                    row.uploadGroup());
        });
        return moved[0];
    }

    // The upload worker never removes rows; a removal is a row that disappears, as it would in the database.

    @Override
    public Optional<Paste> findByIdForUpdate(String shortCode) {
        return findById(shortCode);
    }

    @Override
    public List<Paste> findByContentSha256ForUpdate(String contentSha256, int limit) {
        throw new UnsupportedOperationException("not used by the upload worker");
    }

    @Override
    public List<String> findCodesByContentSha256(String contentSha256, int limit) {
        throw new UnsupportedOperationException("not used by the upload worker");
    }

    @Override
    public int addDeleteToken(String shortCode, String deleteTokenSha256, int maxReplays) {
        throw new UnsupportedOperationException("not used by the upload worker");
    }

    @Override
    public long countPendingUploads(String uploadGroup, String shortCode) {
        throw new UnsupportedOperationException("not used by the upload worker");
    }

    @Override
    public Optional<Boolean> countJobSendFailure(String shortCode, String reason) {
        throw new UnsupportedOperationException("not used by the upload worker");
    }

    @Override
    public int deleteWithToken(String shortCode, String deleteTokenSha256) {
        throw new UnsupportedOperationException("not used by the upload worker");
    }

    @Override
    public int removeInProgress(String shortCode) {
        Paste row = rows.get(shortCode);
        return row != null && row.status() == PasteStatus.IN_PROGRESS && rows.remove(shortCode, row) ? 1 : 0;
    }

    @Override
    public int remove(String shortCode) {
        return rows.remove(shortCode) == null ? 0 : 1;
    }

    @Override
    public int burn(String shortCode) {
        throw new UnsupportedOperationException("the upload worker never reveals");
    }
}
