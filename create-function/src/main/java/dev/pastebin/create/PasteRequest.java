package dev.pastebin.create;

/** A create as the controller read it: the paste's bytes (valid, non-empty UTF-8 within the limit) and its options. */
record PasteRequest(byte[] content, PasteOptions options) {
}
