package dev.pastebin.sweeper;

import io.micronaut.core.annotation.Nullable;

/** A row the sweeper deleted: its code and the location recorded on it, if any. */
public record SweptPaste(String shortCode, @Nullable String s3Location) {}
