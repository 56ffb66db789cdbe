package dev.pastebin.core.storage;

import io.micronaut.core.annotation.Nullable;
import java.util.Optional;

/**
 * Where a paste's content is stored: an S3 bucket and key, recorded on a PROCESSED row as
 * {@code s3://bucket/key} ({@link #uri()}). Both parts are non-empty and the bucket has no slash, so
 * {@code parse(location.uri())} gives the location back.
 */
public record ContentLocation(String bucket, String key) {

    private static final String SCHEME = "s3://";

    public ContentLocation {
        if (bucket == null || bucket.isEmpty() || bucket.indexOf('/') >= 0) {
            throw new IllegalArgumentException("not a bucket name: " + bucket);
        }
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("an object key must not be empty");
        }
    }

    /** The location a row records, or empty when {@code uri} is not of the form {@code s3://bucket/key}. */
    public static Optional<ContentLocation> parse(@Nullable String uri) {
        if (uri == null || !uri.startsWith(SCHEME)) {
            return Optional.empty();
        }
        int slash = uri.indexOf('/', SCHEME.length());
        if (slash <= SCHEME.length() || slash == uri.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(new ContentLocation(uri.substring(SCHEME.length(), slash), uri.substring(slash + 1)));
    }

    public String uri() {
        return SCHEME + bucket + "/" + key;
    }

    @Override
    public String toString() {
        return uri();
    }
}
