package dev.pastebin.upload;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micronaut.serde.ObjectMapper;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Captures the upload worker's JSON attempt lines, parsed back into their fields. */
final class AttemptLines implements AutoCloseable {

    private final Logger logger = (Logger) LoggerFactory.getLogger("pastebin.upload.attempts");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final ObjectMapper objectMapper;

    AttemptLines(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
        appender.start();
        logger.addAppender(appender);
    }

    List<AttemptLog.Line> all() {
        List<ILoggingEvent> events;
        synchronized (appender) {
            events = new ArrayList<>(appender.list);
        }
        return events.stream().map(e -> parse(e.getFormattedMessage())).toList();
    }

    List<AttemptLog.Line> of(String shortCode) {
        return all().stream().filter(l -> shortCode.equals(l.shortCode())).toList();
    }

    private AttemptLog.Line parse(String json) {
        try {
            return objectMapper.readValue(json, AttemptLog.Line.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSON attempt line: " + json, e);
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
    }
}
