package dev.pastebin.core.retry;

/** Whether trying again can help (seed 001: classify every failure before retrying). */
public enum FailureKind {
    TRANSIENT,
    PERMANENT
}
