package dev.pastebin.core.paste;

/**
 * A lifetime the pastebin does not give a paste: not a whole number of seconds (or, in command-line clients'
 * conventions, of hours, or a duration), or outside one minute to one year.
 */
public final class InvalidExpiryException extends PasteRefusal {

    public InvalidExpiryException(String message) {
        super(message);
    }
}
