package dev.pastebin.core.support;

import dev.pastebin.core.metrics.Metrics;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import software.amazon.cloudwatchlogs.emf.environment.Environment;
import software.amazon.cloudwatchlogs.emf.model.MetricsContext;
import software.amazon.cloudwatchlogs.emf.sinks.ISink;

/**
 * The EMF lines a {@link Metrics} wrote, exactly as they would reach stdout, kept instead of printed. A module
 * that needs it in an application context declares a subclass replacing the {@link Environment} bean (the
 * test-jar carries no bean definitions).
 */
public class CapturedMetrics implements Environment, ISink {

    private final List<String> lines = new ArrayList<>();

    /** A {@link Metrics} for {@code service} that writes here. */
    public Metrics metrics(String service) {
        return new Metrics(service, this);
    }

    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public synchronized void accept(MetricsContext context) {
        try {
            lines.addAll(context.serialize());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public CompletableFuture<Void> shutdown() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean probe() {
        return true;
    }

    @Override
    public String getName() {
        return "test";
    }

    @Override
    public String getType() {
        return "test";
    }

    @Override
    public String getLogGroupName() {
        return "test";
    }

    @Override
    public void configureContext(MetricsContext context) {}

    @Override
    public ISink getSink() {
        return this;
    }
}
