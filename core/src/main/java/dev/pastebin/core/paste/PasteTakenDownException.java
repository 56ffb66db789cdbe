package dev.pastebin.core.paste;

/**
 * No paste has this short code because an operator took it down (or the upload worker refused its blocklisted
 * content): answered 451 rather than 404, so that a reader knows it was removed on purpose (RFC 7725).
 */
public final class PasteTakenDownException extends PasteRefusal {

    public PasteTakenDownException(String message) {
        super(message);
    }
}
