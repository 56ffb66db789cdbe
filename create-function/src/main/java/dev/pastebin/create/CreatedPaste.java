package dev.pastebin.create;

import io.micronaut.serde.annotation.Serdeable;

/** The 201 body: {@code {"shortCode": "…", "status": "IN_PROGRESS", "url": "…"}}. */
@Serdeable
public record CreatedPaste(String shortCode, String status, String url) {
}
