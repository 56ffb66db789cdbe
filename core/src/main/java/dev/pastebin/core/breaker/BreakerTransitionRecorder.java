package dev.pastebin.core.breaker;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Records every {@link BreakerTransition}, in the call that made it: one log line on {@code pastebin.breaker} (WARN
 * when it opens, INFO otherwise) whose fields are {@link Line}'s, top-level in the JSON, and a
 * {@link Metric#BREAKER_TRANSITIONS} metric by the state it went to; closing also records
 * {@link Metric#BREAKER_OPEN_MINUTES}.
 */
@Singleton
public class BreakerTransitionRecorder implements ApplicationEventListener<BreakerTransition> {

    private static final Logger TRANSITIONS = LoggerFactory.getLogger("pastebin.breaker");

    private final Metrics metrics;

    public BreakerTransitionRecorder(Metrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void onApplicationEvent(BreakerTransition transition) {
        Line line = Line.of(transition);
        log(line, transition.to());
        metrics.put(Metric.BREAKER_TRANSITIONS, 1, line.to());
        if (line.openMinutes() != null) {
            metrics.put(Metric.BREAKER_OPEN_MINUTES, line.openMinutes());
        }
    }

    private static void log(Line line, BreakerState to) {
        LoggingEventBuilder event = TRANSITIONS
                .atLevel(to == BreakerState.OPEN ? Level.WARN : Level.INFO)
                .addKeyValue("breaker", line.breaker())
                .addKeyValue("from", line.from())
                .addKeyValue("to", line.to())
                .addKeyValue("cause", line.cause())
                .addKeyValue("windowCalls", line.windowCalls())
                .addKeyValue("windowFailures", line.windowFailures());
        // absent rather than null when they do not apply to this transition
        if (line.cooldownSeconds() != null) {
            event = event.addKeyValue("cooldownSeconds", line.cooldownSeconds());
        }
        if (line.nextProbeAt() != null) {
            event = event.addKeyValue("nextProbeAt", line.nextProbeAt());
        }
        if (line.openMinutes() != null) {
            event = event.addKeyValue("openMinutes", line.openMinutes());
        }
        event.log("breaker {} {} -> {}", line.breaker(), line.from(), line.to());
    }

    /** The fields of a transition line: {@code {..., "breaker":"s3","from":"CLOSED","to":"OPEN",...}}. */
    @Serdeable
    public record Line(
            String breaker,
            String from,
            String to,
            String cause,
            int windowCalls,
            int windowFailures,
            Long cooldownSeconds,
            String nextProbeAt,
            Double openMinutes) {

        static Line of(BreakerTransition transition) {
            return new Line(
                    transition.breaker(),
                    transition.from().name(),
                    transition.to().name(),
                    transition.cause(),
                    transition.windowCalls(),
                    transition.windowFailures(),
                    transition.cooldown() == null ? null : transition.cooldown().toSeconds(),
                    transition.nextProbeAt() == null
                            ? null
                            : transition.nextProbeAt().toString(),
                    // on closing, how long the breaker was not closed
                    transition.openFor() == null ? null : transition.openFor().toMillis() / 60_000.0);
        }
    }
}
