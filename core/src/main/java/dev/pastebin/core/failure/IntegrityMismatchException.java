package dev.pastebin.core.failure;

/**
 * Content whose SHA-256 differs from the one its paste row was created with. Permanent: the same bytes
 * will mismatch on every attempt. The message names hashes only, never content.
 */
public class IntegrityMismatchException extends RuntimeException implements DeclaresErrorClass {

    public IntegrityMismatchException(String message) {
        super(message);
    }

    @Override
    public ErrorClass errorClass() {
        return ErrorClass.INTEGRITY;
    }
}
