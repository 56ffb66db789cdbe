package dev.pastebin.core.paste;

/** A page of the owner's listing asked with a {@code limit} that is not a whole number in the allowed range. */
public final class InvalidPageLimitException extends PasteRefusal {

    public InvalidPageLimitException(String message) {
        super(message);
    }
}
