package dev.pastebin.core.paste;

/**
 * The Idempotency-Key has answered as many replays as a key may: each replay's deletion token is kept, so the list is
 * bounded rather than growing with every retry a client sends.
 */
public final class IdempotencyKeyExhaustedException extends PasteRefusal {

    public IdempotencyKeyExhaustedException(String message) {
        super(message);
    }
}
