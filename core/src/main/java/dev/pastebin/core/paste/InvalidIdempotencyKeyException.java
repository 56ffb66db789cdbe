package dev.pastebin.core.paste;

/** An Idempotency-Key that is not 1 to 128 characters of A-Z, a-z, 0-9, '_', '.', ':', '-'. */
public final class InvalidIdempotencyKeyException extends PasteRefusal {

    public InvalidIdempotencyKeyException(String message) {
        super(message);
    }
}
