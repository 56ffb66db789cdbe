package dev.pastebin.core.priming;

import dev.pastebin.core.config.StorageProperties;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@code GetObject} of a paste key that no paste has: builds the S3 client's request path, signing and
 * connection with the rights the functions already hold on the paste prefix (HeadBucket would need
 * {@code s3:ListBucket}, which could list every short code). The answer is NoSuchKey, or 403 for a function
 * that may not read objects (upload); either means the whole path ran. A missing bucket is a failure.
 */
@Singleton
@Requires(classes = S3Client.class)
@Requires(beans = S3Client.class)
public class StoragePrimer implements Primer {

    /** Not a short code (those are alphanumeric), so never a paste's key. */
    static final String KEY_OF_NO_PASTE = "priming-no-such-paste";

    private final S3Client s3;
    private final StorageProperties storage;

    public StoragePrimer(S3Client s3, StorageProperties storage) {
        this.s3 = s3;
        this.storage = storage;
    }

    @Override
    public String name() {
        return "storage (GetObject of no paste)";
    }

    @Override
    public void prime() {
        try {
            s3.getObjectAsBytes(b -> b.bucket(storage.bucket()).key(storage.keyPrefix() + KEY_OF_NO_PASTE));
        } catch (NoSuchKeyException expected) {
            // the answer for a key nobody stored
        } catch (S3Exception e) {
            if (e.statusCode() != 403) {
                throw e;
            }
        }
    }
}
