package dev.pastebin.core.job;

import java.util.Arrays;
import java.util.Objects;

/**
 * An upload job as both sides see it: which paste, its content and the SHA-256 the row was created with.
 * The wire form is {@link UploadJobCodec}'s business.
 */
public record UploadJob(String shortCode, String contentSha256, byte[] content) {

    public UploadJob {
        Objects.requireNonNull(shortCode, "shortCode");
        Objects.requireNonNull(contentSha256, "contentSha256");
        Objects.requireNonNull(content, "content");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof UploadJob job
                && shortCode.equals(job.shortCode)
                && contentSha256.equals(job.contentSha256)
                && Arrays.equals(content, job.content);
    }

    @Override
    public int hashCode() {
        return Objects.hash(shortCode, contentSha256, Arrays.hashCode(content));
    }

    @Override
    public String toString() {
        // Never the content: it may be anything a user pasted.
        return "UploadJob[shortCode=" + shortCode + ", contentSha256=" + contentSha256 + ", bytes=" + content.length
                + "]";
    }
}
