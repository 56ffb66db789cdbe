package dev.pastebin.core.paste;

/** The Idempotency-Key was used within its retention for a different request (content or options). */
public final class IdempotencyKeyReusedException extends PasteRefusal {

    public IdempotencyKeyReusedException(String message) {
        super(message);
    }
}
