package dev.pastebin.core.paste;

/** The upload lifecycle of a paste (docs/design.md, "States"). PROCESSED and FAILED are terminal. */
public enum PasteStatus {
    IN_PROGRESS,
    PROCESSED,
    FAILED
}
