package dev.pastebin.core.failure;

import io.micronaut.core.annotation.Nullable;

/**
 * A classified failure.
 *
 * @param errorClass what went wrong; its {@link ErrorClass#kind() kind} says whether to retry
 * @param s3Status   the HTTP status S3 (or another AWS service) answered with, if it answered at all
 * @param unexpected true when nothing recognised the exception: it is retried, but logged at error level
 * @param message    a short description for logs and the row's failure reason; never paste content
 */
public record Failure(ErrorClass errorClass, @Nullable Integer s3Status, boolean unexpected, String message) {

    public FailureKind kind() {
        return errorClass.kind();
    }

    public boolean isTransient() {
        return kind() == FailureKind.TRANSIENT;
    }
}
