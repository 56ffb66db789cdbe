package dev.pastebin.read;

import dev.pastebin.core.support.CapturedMetrics;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import software.amazon.cloudwatchlogs.emf.environment.Environment;

/** The read function's EMF lines kept for the test instead of printed, when {@code pastebin.metrics.capture=true}. */
@Singleton
@Replaces(Environment.class)
@Requires(property = "pastebin.metrics.capture", value = "true")
class CapturedReadMetrics extends CapturedMetrics {}
