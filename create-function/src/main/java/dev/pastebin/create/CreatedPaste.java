package dev.pastebin.create;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * The 201 body: {@code {"shortCode", "status", "url", "deleteToken", "expiresAt", "readOnce"}}. The deletion
 * token is shown here only (a replay shows one of its own, and every one stays valid); {@code expiresAt} is {@code null} for a paste that does
 * not expire.
 */
@Serdeable
public record CreatedPaste(
        String shortCode,
        String status,
        String url,
        String deleteToken,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String expiresAt,
        boolean readOnce) {}
