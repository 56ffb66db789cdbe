package dev.pastebin.core.storage;

/**
 * A PROCESSED row whose content cannot be what it says (object missing, or bytes that do not match the
 * row's hash). A fault of the system, not of the request: answered 500 and logged by the service.
 */
public class PasteInconsistencyException extends RuntimeException {

    public PasteInconsistencyException(String message) {
        super(message);
    }
}
