package dev.pastebin.api.create;

import dev.pastebin.core.paste.PasteMetadata;

/**
 * A create as the controller read it: the paste's bytes (valid, non-empty UTF-8 within the limit), its options
 * and its labels.
 */
public record PasteRequest(byte[] content, PasteOptions options, PasteMetadata metadata) {}
