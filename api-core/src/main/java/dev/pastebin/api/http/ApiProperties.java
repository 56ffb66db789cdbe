package dev.pastebin.api.http;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Min;

/**
 * HTTP answers that tell a client to come back later. Bound from {@code pastebin.api.*}.
 *
 * @param unavailableRetryAfterSeconds {@code Retry-After} of a 503 (a dependency is down)
 * @param inProgressRetryAfterSeconds  {@code Retry-After} of a 202 (the paste is still being stored)
 */
@ConfigurationProperties("pastebin.api")
public record ApiProperties(
        @Min(1) @Bindable(defaultValue = "5") int unavailableRetryAfterSeconds,
        @Min(1) @Bindable(defaultValue = "1") int inProgressRetryAfterSeconds) {}
