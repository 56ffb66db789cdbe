package dev.pastebin.core.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.support.RealServices;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The content store against LocalStack's S3: the PutObject the worker makes (content type, S3 enforcing the
 * row's SHA-256), the read path's get, and the sweeper's bulk delete across buckets and past 1000 keys.
 */
@RealServices
@MicronautTest(startApplication = false)
@Property(name = "pastebin.storage.bucket", value = PasteContentStoreIT.BUCKET)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PasteContentStoreIT {

    static final String BUCKET = "it-content-store";
    private static final String OTHER_BUCKET = "it-content-store-other";

    @Inject
    PasteContentStore store;

    @Inject
    S3Client s3;

    @BeforeAll
    void createBuckets() {
        for (String bucket : List.of(BUCKET, OTHER_BUCKET)) {
            if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(bucket))) {
                s3.createBucket(b -> b.bucket(bucket));
            }
        }
    }

    @AfterAll
    void emptyBuckets() {
        for (String bucket : List.of(BUCKET, OTHER_BUCKET)) {
            List<ContentLocation> all = keys(bucket).stream()
                    .map(k -> new ContentLocation(bucket, k))
                    .toList();
            store.deleteAll(all);
        }
    }

    @Test
    void storesTheBytesAsUtf8TextWithTheirSha256AndReadsThemBack() {
        byte[] content = "Grüße 🌍\r\n\tend".getBytes(StandardCharsets.UTF_8);

        ContentLocation location = store.put("abcdefgh", content, ContentHash.sha256Hex(content));

        assertEquals(new ContentLocation(BUCKET, "pastes/abcdefgh"), location);
        assertArrayEquals(content, store.get(location).orElseThrow());
        var head = s3.headObject(b -> b.bucket(BUCKET).key("pastes/abcdefgh").checksumMode(ChecksumMode.ENABLED));
        assertEquals("text/plain; charset=utf-8", head.contentType());
        assertEquals(
                Base64.getEncoder().encodeToString(HexFormat.of().parseHex(ContentHash.sha256Hex(content))),
                head.checksumSHA256());
    }

    @Test
    void s3RejectsBytesThatDoNotMatchTheHashSent() {
        byte[] content = "what arrived".getBytes(StandardCharsets.UTF_8);
        String otherHash = ContentHash.sha256Hex("what was posted".getBytes(StandardCharsets.UTF_8));

        var e = assertThrows(S3Exception.class, () -> store.put("mismatch", content, otherHash));

        assertEquals(400, e.statusCode());
        // the store hashed nothing itself here, but the worker has checked the content against the row before
        // any PUT: a digest S3 disagrees with is corruption on the way, tried again
        assertEquals("BadDigest", e.awsErrorDetails().errorCode());
        assertEquals(ErrorClass.CONNECTION, new FailureClassifier().classify(e).errorClass());
        assertTrue(store.get(store.locationOf("mismatch")).isEmpty());
    }

    @Test
    void aMissingObjectOrBucketIsEmptyNotAnError() {
        assertTrue(store.get(store.locationOf("neverstored")).isEmpty());
        assertTrue(store.get(new ContentLocation("no-such-bucket-for-content", "pastes/x"))
                .isEmpty());
    }

    @Test
    void deleteAllRemovesKeysInEveryBucketInCallsOfAtMostAThousand() {
        var locations = new ArrayList<ContentLocation>();
        for (int i = 0; i < PasteContentStore.MAX_KEYS_PER_DELETE + 5; i++) {
            String key = "bulk/" + i;
            s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("x"));
            locations.add(new ContentLocation(BUCKET, key));
        }
        s3.putObject(b -> b.bucket(OTHER_BUCKET).key("bulk/elsewhere"), RequestBody.fromString("y"));
        locations.add(new ContentLocation(OTHER_BUCKET, "bulk/elsewhere"));
        locations.add(new ContentLocation(BUCKET, "bulk/never-existed"));

        int removed = store.deleteAll(locations);

        assertEquals(PasteContentStore.MAX_KEYS_PER_DELETE + 7, removed);
        assertTrue(keys(BUCKET).stream().noneMatch(k -> k.startsWith("bulk/")));
        assertEquals(Set.of(), Set.copyOf(keys(OTHER_BUCKET)));
    }

    @Test
    void deleteAllCountsTheKeysOfABucketThatNoLongerExistsAsGone() {
        s3.putObject(b -> b.bucket(BUCKET).key("bulk/here"), RequestBody.fromString("z"));
        var locations = List.of(
                new ContentLocation("no-such-bucket-retired", "pastes/old"), new ContentLocation(BUCKET, "bulk/here"));

        assertEquals(2, store.deleteAll(locations));
        assertTrue(keys(BUCKET).stream().noneMatch(k -> k.equals("bulk/here")), "the other bucket's key is deleted");
    }

    @Test
    void deleteAllFailsWhenTheConfiguredBucketIsMissing() {
        var misconfigured = new PasteContentStore(s3, new StorageProperties("no-such-configured-bucket", "pastes/"));

        assertThrows(
                NoSuchBucketException.class, () -> misconfigured.deleteAll(List.of(misconfigured.locationOf("abc"))));
    }

    private List<String> keys(String bucket) {
        return s3.listObjectsV2Paginator(b -> b.bucket(bucket)).contents().stream()
                .map(S3Object::key)
                .toList();
    }
}
