package dev.pastebin.api.priming;

import java.util.Map;

/**
 * A request an HTTP function sends through its own handler to prime itself ({@link ApiRequestPrimer}): it
 * must change nothing (a validation failure, or a read), and is answered {@code expectedStatus}.
 * Declare one as a bean in the function.
 */
public record PrimingRequest(
        String method, String path, Map<String, String> headers, String body, int expectedStatus) {}
