package dev.pastebin.core.failure;

import io.micronaut.core.annotation.Nullable;

/**
 * An AWS refusal that reaches the application without an exception of the SDK's, only an error code: S3's
 * DeleteObjects answers 200 and lists the keys it refused, each with the code S3 would answer alone (the content
 * store's {@code ContentRemovalException}). {@link FailureClassifier} classifies it by that code, as it would an
 * answer with that code and no status.
 */
public interface DeclaresErrorCode {

    /** The code AWS refused with ({@code AccessDenied}, {@code SlowDown}, ...), or null when it gave none. */
    @Nullable
    String errorCode();
}
