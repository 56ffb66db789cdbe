package dev.pastebin.core.paste;

/** No readable paste has this short code (unknown, its upload failed, expired, deleted or read once), or a delete came with the wrong token: a stranger cannot tell which. */
public final class PasteNotFoundException extends PasteRefusal {

    public PasteNotFoundException(String message) {
        super(message);
    }
}
