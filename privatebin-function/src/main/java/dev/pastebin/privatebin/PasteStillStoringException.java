package dev.pastebin.privatebin;

/**
 * A read of a paste still being stored after the bounded wait ({@link PrivateBinProperties#pendingWait()}): the
 * protocol has no "come back later", so the client is told in words that it exists and to try again.
 */
final class PasteStillStoringException extends RuntimeException {

    PasteStillStoringException(String message) {
        super(message, null, false, false);
    }
}
