package dev.pastebin.core.failure;

/** Whether trying again can help (docs/design.md, "Failure classification"). */
public enum FailureKind {
    TRANSIENT,
    PERMANENT
}
