package dev.pastebin.create;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;
import java.util.Map;

/**
 * The 201 body of a large create: a small create's ({@link CreatedPaste}) and {@code uploads}, one per declared file
 * in order: send the file's bytes with {@code method} to {@code url} with exactly {@code headers}, before
 * {@code expiresAt}.
 */
@Serdeable
public record LargeCreatedPaste(
        String shortCode,
        String status,
        String url,
        String deleteToken,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String expiresAt,
        boolean readOnce,
        List<Upload> uploads) {

    /** Where one file's bytes go. */
    @Serdeable
    public record Upload(String name, String method, String url, Map<String, String> headers, String expiresAt) {}
}
