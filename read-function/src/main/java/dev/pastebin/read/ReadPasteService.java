package dev.pastebin.read;

import dev.pastebin.core.http.DependencyUnavailableException;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.DatabaseFailures;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Reading a paste (seed 003's read path): the row decides (PROCESSED, IN_PROGRESS, FAILED/unknown); only a
 * PROCESSED paste's content is fetched from S3, from the location recorded on its row.
 */
@Singleton
public class ReadPasteService {

    private static final Logger LOG = LoggerFactory.getLogger(ReadPasteService.class);

    private final PasteRepository repository;
    private final S3Client s3;

    public ReadPasteService(PasteRepository repository, S3Client s3) {
        this.repository = repository;
        this.s3 = s3;
    }

    /** @throws DependencyUnavailableException when the database cannot be reached */
    public PasteLookup find(String shortCode) {
        Paste paste;
        try {
            paste = repository.findById(shortCode).orElse(null);
        } catch (RuntimeException e) {
            if (DatabaseFailures.isUnavailable(e)) {
                throw new DependencyUnavailableException("database", e);
            }
            throw e;
        }
        if (paste == null) {
            return new PasteLookup.Absent();
        }
        return switch (paste.status()) {
            case PROCESSED -> new PasteLookup.Readable(paste);
            case IN_PROGRESS -> new PasteLookup.Pending(paste);
            case FAILED -> new PasteLookup.Absent();
        };
    }

    /**
     * The exact bytes of a PROCESSED paste, checked against the row's hash.
     *
     * @throws DependencyUnavailableException when S3 cannot be reached or answers 5xx / throttles
     * @throws PasteInconsistencyException    when the object is missing or is not what the row says
     */
    public byte[] content(Paste paste) {
        S3Location location = S3Location.parse(paste.s3Location());
        if (location == null) {
            LOG.error("inconsistency: paste {} is PROCESSED without a valid s3 location", paste.shortCode());
            throw new PasteInconsistencyException("no location for " + paste.shortCode());
        }
        byte[] content;
        try {
            content = s3.getObjectAsBytes(b -> b.bucket(location.bucket()).key(location.key())).asByteArray();
        } catch (NoSuchKeyException | NoSuchBucketException e) {
            LOG.error("inconsistency: paste {} is PROCESSED but its object {} is missing ({})",
                    paste.shortCode(), paste.s3Location(), e.getClass().getSimpleName());
            throw new PasteInconsistencyException("object missing for " + paste.shortCode());
        } catch (S3Exception e) {
            if (e.statusCode() >= 500 || e.isThrottlingException()) {
                throw new DependencyUnavailableException("storage", e);
            }
            throw e;
        } catch (SdkClientException e) {
            // no answer at all: connection refused, timeout, DNS
            throw new DependencyUnavailableException("storage", e);
        } catch (SdkException e) {
            if (e.retryable()) {
                throw new DependencyUnavailableException("storage", e);
            }
            throw e;
        }
        if (!ContentHash.sha256Hex(content).equals(paste.contentSha256())) {
            LOG.error("inconsistency: paste {} object {} does not match the row's SHA-256 ({} bytes stored, {} expected)",
                    paste.shortCode(), paste.s3Location(), content.length, paste.sizeBytes());
            throw new PasteInconsistencyException("content mismatch for " + paste.shortCode());
        }
        return content;
    }

    /** {@code s3://bucket/key} as the upload worker records it. */
    record S3Location(String bucket, String key) {
        /** @return the location, or {@code null} when it is not of the form {@code s3://bucket/key} */
        static S3Location parse(String location) {
            if (location == null || !location.startsWith("s3://") || location.indexOf('/', 5) < 6
                    || location.indexOf('/', 5) == location.length() - 1) {
                return null;
            }
            int slash = location.indexOf('/', 5);
            return new S3Location(location.substring(5, slash), location.substring(slash + 1));
        }
    }
}
