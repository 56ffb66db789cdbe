package dev.pastebin.core.paste;

/**
 * A create whose credential is no usable API key: refused (401), nothing stored.
 *
 * @see Reason
 */
public final class ApiKeyInvalidException extends PasteRefusal {

    /** Why the credential was refused; the HTTP layer tells a malformed request from a key that is not valid. */
    public enum Reason {
        /** Not an {@code Authorization: Bearer <token>} header. */
        MALFORMED,
        /** No key has this value (or the value is not shaped like a key). */
        UNKNOWN,
        /** The operator revoked the key. */
        REVOKED
    }

    private final Reason reason;

    public ApiKeyInvalidException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
