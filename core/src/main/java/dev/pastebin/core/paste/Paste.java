package dev.pastebin.core.paste;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/**
 * One row of {@code pastes}. The content itself lives in S3; the row holds what the read path needs to
 * answer without touching S3 (status, hash for the ETag, size, expiry, read-once), the S3 attempts its upload
 * has made, when the open S3 breaker first held its upload ({@code firstHeldAt}, null if never), the hash
 * of its deletion token, the labels its creator gave it ({@code language}, {@code fileName}: {@link PasteMetadata}),
 * and the client its upload job is counted against ({@code uploadGroup}, the job's {@code MessageGroupId}; null for a
 * large paste, which has no job, and for rows written before it was recorded).
 */
@MappedEntity("pastes")
public record Paste(
        @Id String shortCode,
        @Nullable String userId,
        String contentSha256,
        int sizeBytes,
        @Nullable String s3Location,
        PasteStatus status,
        @Nullable String failureReason,
        int uploadAttempts,
        @GeneratedValue Instant createdAt,
        @GeneratedValue Instant updatedAt,
        @Nullable String deleteTokenSha256,
        @Nullable Instant expiresAt,
        boolean readOnce,
        @Nullable Instant firstHeldAt,
        @Nullable String language,
        @Nullable String fileName,
        @Nullable String uploadGroup) {

    /** A new paste as it is inserted: IN_PROGRESS, no location yet; timestamps come from the database. */
    public static Paste inProgress(
            String shortCode,
            @Nullable String userId,
            String contentSha256,
            int sizeBytes,
            String deleteTokenSha256,
            @Nullable Instant expiresAt,
            boolean readOnce,
            PasteMetadata metadata) {
        return new Paste(
                shortCode,
                userId,
                contentSha256,
                sizeBytes,
                null,
                PasteStatus.IN_PROGRESS,
                null,
                0,
                null,
                null,
                deleteTokenSha256,
                expiresAt,
                readOnce,
                null,
                metadata.language(),
                metadata.fileName(),
                null);
    }

    /** This paste, its upload job counted against {@code group} (the job's {@code MessageGroupId}). */
    public Paste withUploadGroup(String group) {
        return new Paste(
                shortCode,
                userId,
                contentSha256,
                sizeBytes,
                s3Location,
                status,
                failureReason,
                uploadAttempts,
                createdAt,
                updatedAt,
                deleteTokenSha256,
                expiresAt,
                readOnce,
                firstHeldAt,
                language,
                fileName,
                group);
    }

    /** Expired pastes are gone for every reader at once, before the sweeper removes them. */
    public boolean isExpiredAt(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }
}
