package dev.pastebin.core.paste;

/**
 * A page of the owner's listing asked {@code after} a cursor this pastebin did not give: cursors are opaque, taken
 * from the previous page's {@code next} as they are.
 */
public final class InvalidPageCursorException extends PasteRefusal {

    public InvalidPageCursorException(String message) {
        super(message);
    }
}
