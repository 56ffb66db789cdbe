package dev.pastebin.testkit;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;

/** A bucket of one run in LocalStack: created empty, removed with everything in it. */
public record RunBucket(S3Client s3, String name) {

    public RunBucket create() {
        s3.createBucket(b -> b.bucket(name));
        return this;
    }

    /** Deletes the objects, one DeleteObjects call per page of the listing (up to 1,000 keys), then the bucket. */
    public void remove() {
        s3.listObjectsV2Paginator(b -> b.bucket(name)).forEach(page -> {
            if (!page.contents().isEmpty()) {
                s3.deleteObjects(b -> b.bucket(name)
                        .delete(d -> d.objects(page.contents().stream()
                                .map(o ->
                                        ObjectIdentifier.builder().key(o.key()).build())
                                .toList())));
            }
        });
        s3.deleteBucket(b -> b.bucket(name));
    }
}
