package dev.pastebin.core.storage;

import dev.pastebin.core.failure.DeclaresErrorCode;
import io.micronaut.core.annotation.Nullable;
import java.util.List;
import software.amazon.awssdk.services.s3.model.S3Error;

/** S3 refused to delete some keys of a DeleteObjects call (it answers 200 and lists them). */
public class ContentRemovalException extends RuntimeException implements DeclaresErrorCode {

    private final transient List<S3Error> errors;

    public ContentRemovalException(String message, List<S3Error> errors) {
        super(message);
        this.errors = errors;
    }

    public List<S3Error> errors() {
        return errors;
    }

    /** The code S3 refused the first key with: the failure is classified by it. */
    @Override
    @Nullable
    public String errorCode() {
        return errors.isEmpty() ? null : errors.getFirst().code();
    }
}
