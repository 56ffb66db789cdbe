package dev.pastebin.core.storage;

import dev.pastebin.core.config.StorageProperties;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The S3 side of large pastes (docs/design.md, "Large files: straight to S3"): the pre-signed PUT a client sends a
 * file's bytes with, to {@code staging/<fileId>}; the staged object's size and stored SHA-256; its move to
 * {@code files/<fileId>}; the pre-signed GET a read redirects to. Pre-signing is a local computation (no call to S3),
 * with the S3 client's region, endpoint, path style and credentials.
 */
@Singleton
@Requires(classes = S3Client.class)
public class LargeFileStore {

    private final S3Client s3;
    private final S3Presigner presigner;
    private final StorageProperties storage;
    private final LargeFileProperties properties;

    public LargeFileStore(S3Client s3, StorageProperties storage, LargeFileProperties properties) {
        this.s3 = s3;
        this.presigner = S3Presigner.builder().s3Client(s3).build();
        this.storage = storage;
        this.properties = properties;
    }

    /**
     * A pre-signed request: the client sends {@code method} to {@code url} with exactly {@code headers} (the signed
     * ones, besides Host), before {@code expiresAt}.
     */
    public record PresignedRequest(String method, URL url, Map<String, List<String>> headers, Instant expiresAt) {}

    /** The staged object as S3 stored it: its size and the SHA-256 S3 computed on its PUT (hex; null if none). */
    public record StagedObject(
            long sizeBytes,
            @io.micronaut.core.annotation.Nullable String sha256Hex) {}

    /**
     * Where pre-signed requests go: the scheme, host and port of the bucket's endpoint (virtual-hosted in AWS, the
     * endpoint override locally), which a web page's Content-Security-Policy must admit for the page to PUT there.
     * Pre-signing is local, so this asks S3 nothing.
     */
    public String requestOrigin() {
        URL url = presigner
                .presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(1))
                        .getObjectRequest(r -> r.bucket(storage.bucket()).key(properties.stagingPrefix())))
                .url();
        return url.getProtocol() + "://" + url.getAuthority();
    }

    /**
     * A PUT of exactly {@code sizeBytes} bytes of {@code contentType} whose SHA-256 is {@code sha256Hex}, or, with
     * {@code sha256Hex} null, of any bytes of that size (the upload worker then hashes what arrived): S3 refuses a
     * body of another length (the signed Content-Length) or another hash (400 BadDigest) itself. A null
     * {@code contentType} is not signed, for a client that sends none ({@code curl -T}): S3 refuses a request that
     * lacks a signed header.
     */
    public PresignedRequest presignUpload(
            String fileId,
            long sizeBytes,
            @io.micronaut.core.annotation.Nullable String sha256Hex,
            @io.micronaut.core.annotation.Nullable String contentType) {
        var presigned = presigner.presignPutObject(p -> p.signatureDuration(properties.uploadWindow())
                .putObjectRequest(r -> {
                    r.bucket(storage.bucket()).key(stagingKey(fileId)).contentLength(sizeBytes);
                    if (contentType != null) {
                        r.contentType(contentType);
                    }
                    if (sha256Hex != null) {
                        r.checksumSHA256(base64(sha256Hex));
                    }
                }));
        return new PresignedRequest(
                presigned.httpRequest().method().name(),
                presigned.url(),
                presigned.signedHeaders().entrySet().stream()
                        .filter(h -> !h.getKey().equalsIgnoreCase("host"))
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
                presigned.expiration());
    }

    /**
     * A GET of the verified file that S3 answers with {@code contentType} and as an attachment named
     * {@code fileName} (both signed into the URL), valid for {@code pastebin.large-files.read-link-validity}.
     */
    public URL presignRead(String fileId, String fileName, String contentType) {
        return presigner
                .presignGetObject(p -> p.signatureDuration(properties.readLinkValidity())
                        .getObjectRequest(r -> r.bucket(storage.bucket())
                                .key(finalKey(fileId))
                                .responseContentType(contentType)
                                .responseContentDisposition(attachment(fileName))))
                .url();
    }

    /**
     * The staged object's size and stored SHA-256, or empty when there is none (not uploaded yet, or already moved).
     * A role without {@code s3:ListBucket} is told 403 for a missing key; under the staging prefix, where the upload
     * worker may read, that means "no such object" (as {@link PasteContentStore#get} reads it).
     */
    public Optional<StagedObject> headStaged(String fileId) {
        HeadObjectResponse head;
        try {
            head = s3.headObject(
                    b -> b.bucket(storage.bucket()).key(stagingKey(fileId)).checksumMode(ChecksumMode.ENABLED));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404 || e.statusCode() == 403) {
                return Optional.empty();
            }
            throw e;
        }
        String checksum = head.checksumSHA256();
        return Optional.of(new StagedObject(
                head.contentLength(),
                checksum == null || checksum.contains("-")
                        ? null
                        : HexFormat.of().formatHex(Base64.getDecoder().decode(checksum))));
    }

    /**
     * The SHA-256 of the staged object's bytes, read through: for an object S3 stored without one (put by other
     * means than the signed PUT), so that nothing unverified is ever moved.
     */
    public String stagedSha256(String fileId) {
        java.security.MessageDigest digest;
        try {
            digest = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (var in = s3.getObject(b -> b.bucket(storage.bucket()).key(stagingKey(fileId)))) {
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Whether the verified file is at its final key (a redelivered event whose staged object is already moved). */
    public boolean finalExists(String fileId) {
        try {
            s3.headObject(b -> b.bucket(storage.bucket()).key(finalKey(fileId)));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404 || e.statusCode() == 403) {
                return false;
            }
            throw e;
        }
    }

    /** Copies the staged object to its final key, S3 computing and storing its SHA-256 again. */
    public void copyToFinal(String fileId) {
        s3.copyObject(b -> b.sourceBucket(storage.bucket())
                .sourceKey(stagingKey(fileId))
                .destinationBucket(storage.bucket())
                .destinationKey(finalKey(fileId))
                .checksumAlgorithm(ChecksumAlgorithm.SHA256));
    }

    /** Deletes the staged object (idempotent: S3 confirms the delete of an absent key). */
    public void deleteStaged(String fileId) {
        s3.deleteObject(b -> b.bucket(storage.bucket()).key(stagingKey(fileId)));
    }

    /** Every key a large paste's files may be under, staged or final, for its removal. */
    public List<ContentLocation> locationsOf(List<String> fileIds) {
        return fileIds.stream()
                .flatMap(id -> java.util.stream.Stream.of(
                        new ContentLocation(storage.bucket(), stagingKey(id)),
                        new ContentLocation(storage.bucket(), finalKey(id))))
                .toList();
    }

    /**
     * The two folders any file of the paste {@code shortCode} can be in, staged or verified, as locations whose key
     * ends in {@code /}: {@link PasteContentStore#deleteAll} deletes everything under them. For a removal that must
     * leave nothing behind without the paste's file rows (a takedown's repeat: the tombstone keeps none).
     */
    public List<ContentLocation> foldersOf(String shortCode) {
        return List.of(
                new ContentLocation(storage.bucket(), properties.stagingPrefix() + shortCode + "/"),
                filesLocationOf(shortCode));
    }

    /** Where a PROCESSED large paste's row says its content is: the folder of its files. */
    public ContentLocation filesLocationOf(String shortCode) {
        return new ContentLocation(storage.bucket(), properties.filesPrefix() + shortCode + "/");
    }

    /** Whether a row's recorded location is a large paste's folder of files (in this bucket). */
    public boolean isFilesLocation(@io.micronaut.core.annotation.Nullable String s3Location) {
        return ContentLocation.parse(s3Location)
                .filter(l -> l.bucket().equals(storage.bucket())
                        && l.key().startsWith(properties.filesPrefix())
                        && l.key().endsWith("/"))
                .isPresent();
    }

    /** The file id an S3 event's key names, or empty when the key is not a staged file's. */
    public Optional<String> fileIdOfStagingKey(String bucket, String key) {
        if (!bucket.equals(storage.bucket()) || !key.startsWith(properties.stagingPrefix())) {
            return Optional.empty();
        }
        String id = key.substring(properties.stagingPrefix().length());
        return id.isEmpty() ? Optional.empty() : Optional.of(id);
    }

    public String stagingKey(String fileId) {
        return properties.stagingPrefix() + fileId;
    }

    public String finalKey(String fileId) {
        return properties.filesPrefix() + fileId;
    }

    public LargeFileProperties properties() {
        return properties;
    }

    /**
     * RFC 6266: the name percent-encoded as UTF-8 ({@code filename*=}), so that any name survives where it is read
     * (browsers), after a plain ASCII one ({@code filename=}) for the clients that read only that ({@code curl -OJ}):
     * each character a quoted ASCII string cannot hold replaced by {@code _}.
     */
    static String attachment(String fileName) {
        StringBuilder ascii = new StringBuilder();
        fileName.codePoints()
                .forEach(c -> ascii.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? (char) c : '_'));
        StringBuilder encoded = new StringBuilder();
        for (byte b : fileName.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0) {
                encoded.append((char) c);
            } else {
                encoded.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''" + encoded;
    }

    private static String base64(String sha256Hex) {
        return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(sha256Hex));
    }

    @PreDestroy
    void close() {
        presigner.close();
    }
}
