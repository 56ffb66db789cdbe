package dev.pastebin.core.paste;

/** A short code of the wrong length or alphabet: nothing is looked up. */
public final class MalformedShortCodeException extends PasteRefusal {

    public MalformedShortCodeException(String message) {
        super(message);
    }
}
