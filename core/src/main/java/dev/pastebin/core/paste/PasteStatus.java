package dev.pastebin.core.paste;

/** The upload lifecycle of a paste (seed 003). PROCESSED and FAILED are terminal. */
public enum PasteStatus {
    IN_PROGRESS,
    PROCESSED,
    FAILED
}
