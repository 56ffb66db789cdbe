package dev.pastebin.sweeper;

import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * A row the sweeper deleted: its code, the location recorded on it, if any, and a large paste's file ids (their
 * staged and verified objects go with it; none for a small paste).
 */
public record SweptPaste(String shortCode, @Nullable String s3Location, List<String> fileIds) {

    public SweptPaste(String shortCode, @Nullable String s3Location) {
        this(shortCode, s3Location, List.of());
    }
}
