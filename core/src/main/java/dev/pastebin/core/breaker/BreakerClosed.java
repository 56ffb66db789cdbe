package dev.pastebin.core.breaker;

import java.time.Instant;

/**
 * Published, in the probe's own invocation, by the one call whose answer moved the breaker from HALF_OPEN to CLOSED:
 * S3 is back, and whoever listens (the upload worker releasing its held jobs) can act on it at once.
 */
public record BreakerClosed(String breaker, Instant closedAt) {}
