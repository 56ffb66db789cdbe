package dev.pastebin.core.storage;

import java.util.List;
import software.amazon.awssdk.services.s3.model.S3Error;

/** S3 refused to delete some keys of a DeleteObjects call (it answers 200 and lists them). */
public class ContentRemovalException extends RuntimeException {

    private final transient List<S3Error> errors;

    public ContentRemovalException(String message, List<S3Error> errors) {
        super(message);
        this.errors = errors;
    }

    public List<S3Error> errors() {
        return errors;
    }
}
