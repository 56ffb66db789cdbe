package dev.pastebin.core.paste;

/** A language that is not one of the highlighter's (PasteMetadata.LANGUAGES), spelled exactly. */
public final class InvalidLanguageException extends PasteRefusal {

    public InvalidLanguageException(String message) {
        super(message);
    }
}
