package dev.pastebin.privatebin;

/**
 * A body the PrivateBin protocol refuses: answered as PrivateBin answers it, HTTP 200 with
 * {@code {"status": 1, "message": …}} (its clients show the message). Not a fault: no stack trace.
 */
final class InvalidPasteDataException extends RuntimeException {

    /** PrivateBin's own message for a body that does not validate. */
    static final String INVALID_DATA = "Invalid data.";

    InvalidPasteDataException(String message) {
        super(message, null, false, false);
    }

    static InvalidPasteDataException invalidData() {
        return new InvalidPasteDataException(INVALID_DATA);
    }
}
