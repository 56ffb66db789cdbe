package dev.pastebin.core.paste;

/** A create whose content's SHA-256 is on the operator's blocklist: refused (451) before anything is stored. */
public final class ContentBlockedException extends PasteRefusal {

    public ContentBlockedException(String message) {
        super(message);
    }
}
