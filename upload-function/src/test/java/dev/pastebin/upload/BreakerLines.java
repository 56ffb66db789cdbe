package dev.pastebin.upload;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.pastebin.core.breaker.S3CircuitBreaker;
import io.micronaut.serde.ObjectMapper;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Captures the breaker's transition lines ({@code pastebin.breaker}) of one breaker, parsed back. */
final class BreakerLines implements AutoCloseable {

    private final Logger logger = (Logger) LoggerFactory.getLogger("pastebin.breaker");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final ObjectMapper objectMapper;
    private final String breaker;

    BreakerLines(ObjectMapper objectMapper, String breaker) {
        this.objectMapper = objectMapper;
        this.breaker = breaker;
        appender.start();
        logger.addAppender(appender);
    }

    List<S3CircuitBreaker.Transition> transitions() {
        List<ILoggingEvent> events;
        synchronized (appender) {
            events = new ArrayList<>(appender.list);
        }
        return events.stream().map(e -> parse(e.getFormattedMessage())).filter(t -> t.breaker().equals(breaker)).toList();
    }

    private S3CircuitBreaker.Transition parse(String json) {
        try {
            return objectMapper.readValue(json, S3CircuitBreaker.Transition.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSON transition line: " + json, e);
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
    }
}
