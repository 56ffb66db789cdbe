package dev.pastebin.core.storage;

import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.logging.LogContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Paste content in S3: one object per short code under {@link StorageProperties#objectKey(String)}, so a
 * redelivered upload overwrites the same key with the same bytes. The only class that calls S3; it exists
 * only in functions that carry the S3 client (not in create).
 */
@Singleton
@Requires(classes = S3Client.class)
public class PasteContentStore {

    public static final String CONTENT_TYPE = "text/plain; charset=utf-8";

    /**
     * The sweeper's epoch marker in the paste bucket, outside the paste prefix: the last sweep epoch a
     * reconciling sweep committed to its database (docs/design.md, "Orphan objects"). The one key the sweeper
     * may read and write there (the template).
     */
    public static final String SWEEP_EPOCH_KEY = "sweeper/epoch";

    /** DeleteObjects takes at most this many keys per call. */
    static final int MAX_KEYS_PER_DELETE = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(PasteContentStore.class);

    private final S3Client s3;
    private final StorageProperties storage;

    public PasteContentStore(S3Client s3, StorageProperties storage) {
        this.s3 = s3;
        this.storage = storage;
    }

    /**
     * Every key a paste's content may be under, to remove it: the configured key of its code (a FAILED row
     * normally has no location, but its object may exist: stored, then the row's transition was lost), plus
     * the location its row recorded where that names another key. An unusable recorded value must not block
     * the removal, so it is logged and only the configured key is returned.
     */
    public Set<ContentLocation> locationsOf(String shortCode, @Nullable String recordedLocation) {
        Set<ContentLocation> locations = new LinkedHashSet<>();
        locations.add(locationOf(shortCode));
        if (recordedLocation != null) {
            ContentLocation.parse(recordedLocation)
                    .ifPresentOrElse(
                            locations::add,
                            () -> LOG.atWarn()
                                    .addKeyValue(LogContext.SHORT_CODE, shortCode)
                                    .log(
                                            "paste {} has an unusable s3_location, removing only its configured key",
                                            shortCode));
        }
        return locations;
    }

    /** Where the content of {@code shortCode} is (or will be) stored. */
    public ContentLocation locationOf(String shortCode) {
        return new ContentLocation(storage.bucket(), storage.objectKey(shortCode));
    }

    /**
     * Stores the content and returns its location. The SHA-256 sent is the one the paste row was created with
     * (not one computed here), so S3 itself rejects the PUT (400 BadDigest) unless the bytes it received are
     * exactly the bytes the user posted: end-to-end integrity, not only transport integrity.
     */
    public ContentLocation put(String shortCode, byte[] content, String sha256Hex) {
        ContentLocation location = locationOf(shortCode);
        String checksum = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(sha256Hex));
        s3.putObject(
                b -> b.bucket(location.bucket())
                        .key(location.key())
                        .contentType(CONTENT_TYPE)
                        .checksumAlgorithm(ChecksumAlgorithm.SHA256)
                        .checksumSHA256(checksum),
                RequestBody.fromBytes(content));
        return location;
    }

    /**
     * The stored bytes, or empty when the object (or its bucket) does not exist. S3 tells a role without
     * {@code s3:ListBucket} (every function but the sweeper, on purpose) that a key is missing with 403
     * AccessDenied instead of 404 NoSuchKey; the functions that read hold {@code s3:GetObject} on the paste
     * prefix (the template, TemplateTest), so under it a 403 means "no such object", not a misconfiguration.
     */
    public Optional<byte[]> get(ContentLocation location) {
        try {
            return Optional.of(
                    s3.getObjectAsBytes(b -> b.bucket(location.bucket()).key(location.key()))
                            .asByteArray());
        } catch (NoSuchKeyException | NoSuchBucketException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 403 && isPasteKey(location)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private boolean isPasteKey(ContentLocation location) {
        return location.bucket().equals(storage.bucket()) && location.key().startsWith(storage.keyPrefix());
    }

    /**
     * The sweep epoch the bucket's marker holds, or empty when there is none yet. The sweeper cannot list
     * {@code sweeper/}, so S3 answers a missing marker with 403 AccessDenied instead of 404, as it does for a
     * missing paste key; the sweeper writes the marker right after it reads it, with the same grant, so a
     * role that cannot read it fails that write instead of being taken for "no marker" run after run.
     *
     * @throws IllegalStateException when the marker holds anything but a number
     */
    public OptionalLong sweepEpochMarker() {
        String text;
        try {
            text = s3.getObjectAsBytes(b -> b.bucket(storage.bucket()).key(SWEEP_EPOCH_KEY))
                    .asUtf8String();
        } catch (NoSuchKeyException e) {
            return OptionalLong.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 403
                    && e.awsErrorDetails() != null
                    && "AccessDenied".equals(e.awsErrorDetails().errorCode())) {
                return OptionalLong.empty();
            }
            throw e;
        }
        try {
            return OptionalLong.of(Long.parseLong(text.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    "s3://" + storage.bucket() + "/" + SWEEP_EPOCH_KEY + " holds no sweep epoch: " + text, e);
        }
    }

    /** Writes the sweep epoch to the bucket's marker. */
    public void putSweepEpochMarker(long epoch) {
        s3.putObject(
                b -> b.bucket(storage.bucket()).key(SWEEP_EPOCH_KEY).contentType(CONTENT_TYPE),
                RequestBody.fromString(Long.toString(epoch)));
    }

    /**
     * Up to {@code limit} (at most 1000) objects of this bucket under {@code prefix} (the paste prefix, or a large
     * paste's staging or files prefix), in S3's key order, after the key {@code prefix + after} (empty: from the
     * first), each with the short code its key names (what follows the prefix, up to a {@code /}) and its
     * LastModified. One ListObjectsV2 call; it needs {@code s3:ListBucket} on the prefix, which only the sweeper
     * holds for these three (TemplateTest).
     */
    public List<ListedObject> objectsUnder(String prefix, String after, int limit) {
        return s3
                .listObjectsV2(b -> b.bucket(storage.bucket())
                        .prefix(prefix)
                        .startAfter(prefix + after)
                        .maxKeys(limit))
                .contents()
                .stream()
                .map(object -> {
                    String name = object.key().substring(prefix.length());
                    int slash = name.indexOf('/');
                    return new ListedObject(
                            object.key(), slash < 0 ? name : name.substring(0, slash), object.lastModified());
                })
                .toList();
    }

    /**
     * Deletes every location with DeleteObjects, per bucket and at most {@value #MAX_KEYS_PER_DELETE} keys a
     * call; returns the number of keys deleted (absent keys count: S3 deletes idempotently). A location whose key
     * ends in {@code /} is a folder (a large paste's files, {@link LargeFileStore#foldersOf}): every object under it
     * is listed and deleted, however many there are. A recorded
     * location in a bucket that no longer exists counts as deleted too: a bucket that is gone holds no object,
     * and a row that names one must not block every later sweep. The configured bucket missing is a
     * misconfiguration, never taken for "gone".
     *
     * @throws ContentRemovalException when S3 refuses any key
     * @throws NoSuchBucketException   when the configured bucket does not exist
     */
    public int deleteAll(Collection<ContentLocation> locations) {
        Map<String, Set<String>> keysByBucket = new LinkedHashMap<>();
        for (ContentLocation l : locations) {
            Set<String> keys = keysByBucket.computeIfAbsent(l.bucket(), b -> new LinkedHashSet<>());
            if (l.key().endsWith("/")) {
                keys.addAll(keysUnder(l));
            } else {
                keys.add(l.key());
            }
        }
        int removed = 0;
        for (Map.Entry<String, Set<String>> bucket : keysByBucket.entrySet()) {
            List<String> keys = new ArrayList<>(bucket.getValue());
            for (int from = 0; from < keys.size(); from += MAX_KEYS_PER_DELETE) {
                removed += deleteObjects(
                        bucket.getKey(), keys.subList(from, Math.min(keys.size(), from + MAX_KEYS_PER_DELETE)));
            }
        }
        return removed;
    }

    /** The keys of every object under a folder location; none when its bucket is gone (as deleteObjects reads it). */
    private List<String> keysUnder(ContentLocation folder) {
        try {
            return s3.listObjectsV2Paginator(b -> b.bucket(folder.bucket()).prefix(folder.key())).contents().stream()
                    .map(S3Object::key)
                    .toList();
        } catch (NoSuchBucketException e) {
            if (folder.bucket().equals(storage.bucket())) {
                throw e;
            }
            return List.of();
        }
    }

    private int deleteObjects(String bucket, List<String> keys) {
        List<ObjectIdentifier> objects = keys.stream()
                .map(key -> ObjectIdentifier.builder().key(key).build())
                .toList();
        // quiet: the response lists only the keys S3 could not delete
        DeleteObjectsResponse response;
        try {
            response = s3.deleteObjects(
                    b -> b.bucket(bucket).delete(d -> d.objects(objects).quiet(true)));
        } catch (NoSuchBucketException e) {
            if (bucket.equals(storage.bucket())) {
                throw e;
            }
            LOG.warn("bucket {} no longer exists: its {} recorded objects are gone with it", bucket, keys.size());
            return keys.size();
        }
        if (response.hasErrors() && !response.errors().isEmpty()) {
            String errors = response.errors().stream()
                    .limit(5)
                    .map(e -> e.key() + ": " + e.code())
                    .collect(Collectors.joining(", "));
            throw new ContentRemovalException(
                    "S3 refused to delete " + response.errors().size() + " of " + keys.size() + " objects in bucket "
                            + bucket + " (" + errors + ")",
                    response.errors());
        }
        return keys.size();
    }
}
