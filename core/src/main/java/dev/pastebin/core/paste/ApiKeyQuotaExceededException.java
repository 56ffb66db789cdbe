package dev.pastebin.core.paste;

/**
 * A create that would take its API key past the key's daily paste or byte limit: refused (429), nothing stored, and
 * nothing counted. The key may create again at the next UTC midnight.
 */
public final class ApiKeyQuotaExceededException extends PasteRefusal {

    private final long retryAfterSeconds;

    public ApiKeyQuotaExceededException(String message, long retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Seconds until the next UTC midnight, when the key's day starts afresh. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
