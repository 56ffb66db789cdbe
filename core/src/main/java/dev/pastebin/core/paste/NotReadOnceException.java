package dev.pastebin.core.paste;

/** A reveal of a paste that is not read-once (it is read with GET). */
public final class NotReadOnceException extends PasteRefusal {

    public NotReadOnceException(String message) {
        super(message);
    }
}
