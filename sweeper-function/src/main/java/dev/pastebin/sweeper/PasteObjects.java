package dev.pastebin.sweeper;

import dev.pastebin.core.config.StorageProperties;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Removes the S3 objects of deleted rows with DeleteObjects (up to 1000 keys a call). A FAILED row normally
 * has no location, but its object may still exist (stored, then the row's transition was lost), so the
 * configured key of every code is removed, plus the recorded location where it names another key.
 */
@Singleton
public class PasteObjects {

    private static final Logger LOG = LoggerFactory.getLogger(PasteObjects.class);

    static final int MAX_KEYS_PER_CALL = 1000;

    private final S3Client s3;
    private final StorageProperties storage;

    public PasteObjects(S3Client s3, StorageProperties storage) {
        this.s3 = s3;
        this.storage = storage;
    }

    /** Deletes the objects of {@code rows}; returns the number of keys deleted. Throws if S3 refuses any key. */
    public int remove(List<SweptPaste> rows) {
        Map<String, Set<String>> keysByBucket = new LinkedHashMap<>();
        for (SweptPaste row : rows) {
            keysByBucket.computeIfAbsent(storage.bucket(), b -> new LinkedHashSet<>()).add(storage.objectKey(row.shortCode()));
            if (row.s3Location() != null) {
                try {
                    S3Location location = S3Location.parse(row.s3Location());
                    keysByBucket.computeIfAbsent(location.bucket(), b -> new LinkedHashSet<>()).add(location.key());
                } catch (IllegalArgumentException e) {
                    // one bad value must not block every later sweep; the configured key is still removed
                    LOG.warn("paste {} has an unusable s3_location, removing only its configured key: {}",
                            row.shortCode(), e.getMessage());
                }
            }
        }
        int removed = 0;
        for (Map.Entry<String, Set<String>> bucket : keysByBucket.entrySet()) {
            List<String> keys = new ArrayList<>(bucket.getValue());
            for (int from = 0; from < keys.size(); from += MAX_KEYS_PER_CALL) {
                removed += deleteObjects(bucket.getKey(), keys.subList(from, Math.min(keys.size(), from + MAX_KEYS_PER_CALL)));
            }
        }
        return removed;
    }

    private int deleteObjects(String bucket, List<String> keys) {
        List<ObjectIdentifier> objects = keys.stream().map(key -> ObjectIdentifier.builder().key(key).build()).toList();
        // quiet: the response lists only the keys S3 could not delete
        DeleteObjectsResponse response = s3.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(objects).quiet(true)));
        if (response.hasErrors() && !response.errors().isEmpty()) {
            String errors = response.errors().stream().limit(5)
                    .map(e -> e.key() + ": " + e.code())
                    .collect(Collectors.joining(", "));
            throw new ObjectRemovalException("S3 refused to delete " + response.errors().size() + " of " + keys.size()
                    + " objects in bucket " + bucket + " (" + errors + ")", response.errors());
        }
        return keys.size();
    }

    /** S3 refused some keys; the batch's row deletions are rolled back so a later run tries again. */
    public static class ObjectRemovalException extends RuntimeException {

        private final transient List<S3Error> errors;

        ObjectRemovalException(String message, List<S3Error> errors) {
            super(message);
            this.errors = errors;
        }

        public List<S3Error> errors() {
            return errors;
        }
    }

    /** An {@code s3://bucket/key} location as core's StorageProperties writes it. */
    record S3Location(String bucket, String key) {

        static S3Location parse(String location) {
            if (!location.startsWith("s3://") || location.indexOf('/', 5) < 0) {
                throw new IllegalArgumentException("not an s3://bucket/key location: " + location);
            }
            int slash = location.indexOf('/', 5);
            return new S3Location(location.substring(5, slash), location.substring(slash + 1));
        }
    }
}
