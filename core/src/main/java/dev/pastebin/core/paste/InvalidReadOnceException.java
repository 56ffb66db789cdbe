package dev.pastebin.core.paste;

/** A read-once option that is neither {@code true} nor {@code false}. */
public final class InvalidReadOnceException extends PasteRefusal {

    public InvalidReadOnceException(String message) {
        super(message);
    }
}
