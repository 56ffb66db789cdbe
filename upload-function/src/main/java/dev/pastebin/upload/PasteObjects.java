package dev.pastebin.upload;

import dev.pastebin.core.config.StorageProperties;
import jakarta.inject.Singleton;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;

import java.util.Base64;
import java.util.HexFormat;

/** Paste content in S3: one object per short code, under {@link StorageProperties#objectKey(String)}. */
@Singleton
class PasteObjects {

    static final String CONTENT_TYPE = "text/plain; charset=utf-8";

    private final S3Client s3;
    private final StorageProperties storage;

    PasteObjects(S3Client s3, StorageProperties storage) {
        this.s3 = s3;
        this.storage = storage;
    }

    /**
     * Stores the content. The SHA-256 sent is the one the paste row was created with (not one computed
     * here), so S3 itself rejects the PUT (400 BadDigest) unless the bytes it received are exactly the
     * bytes the user posted: end-to-end integrity, not only transport integrity. Overwriting is
     * idempotent: a redelivery writes the same bytes to the same key.
     */
    void put(String shortCode, byte[] content, String sha256Hex) {
        String checksum = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(sha256Hex));
        s3.putObject(b -> b.bucket(storage.bucket())
                        .key(storage.objectKey(shortCode))
                        .contentType(CONTENT_TYPE)
                        .checksumAlgorithm(ChecksumAlgorithm.SHA256)
                        .checksumSHA256(checksum),
                RequestBody.fromBytes(content));
    }

    void delete(String shortCode) {
        s3.deleteObject(b -> b.bucket(storage.bucket()).key(storage.objectKey(shortCode)));
    }
}
