package dev.pastebin.core.paste;

/** A file name that is not 1 to 128 characters without slashes, control or formatting characters, or is . or ... */
public final class InvalidFileNameException extends PasteRefusal {

    public InvalidFileNameException(String message) {
        super(message);
    }
}
