package dev.pastebin.api.http;

import io.micronaut.serde.annotation.Serdeable;

/**
 * The one error body of the HTTP API, for every 4xx and 5xx of every function:
 * {@code {"code": "PASTE_NOT_FOUND", "message": "…", "requestId": "…"}}. {@code code} is stable and meant for
 * programs; {@code message} is for people and may change; {@code requestId} finds the request in the logs.
 */
@Serdeable
public record ApiError(String code, String message, String requestId) {}
