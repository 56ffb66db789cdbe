package dev.pastebin.core.priming;

import dev.pastebin.core.config.StorageProperties;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.s3.S3Client;

/** {@code HeadBucket} on the paste bucket: builds the S3 client's request path and connection. */
@Singleton
@Requires(classes = S3Client.class)
@Requires(beans = S3Client.class)
public class StoragePrimer implements Primer {

    private final S3Client s3;
    private final StorageProperties storage;

    public StoragePrimer(S3Client s3, StorageProperties storage) {
        this.s3 = s3;
        this.storage = storage;
    }

    @Override
    public String name() {
        return "storage (HeadBucket)";
    }

    @Override
    public void prime() {
        s3.headBucket(b -> b.bucket(storage.bucket()));
    }
}
