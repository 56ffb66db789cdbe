package dev.pastebin.core.failure;

/** Whether trying again can help (seed 001: classify every failure before retrying). */
public enum FailureKind {
    TRANSIENT,
    PERMANENT
}
