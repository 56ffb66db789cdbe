package dev.pastebin.api.http;

import io.micronaut.serde.annotation.Serdeable;

/** The 202 body while the paste is being stored: {@code {"shortCode": "…", "status": "IN_PROGRESS"}}. */
@Serdeable
public record PendingPaste(String shortCode, String status) {}
