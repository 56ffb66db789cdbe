package dev.pastebin.core.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.core.logging.JsonLogEncoder;
import dev.pastebin.core.logging.LogContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The JSON lines a function writes to stdout, as written: every event reaching a logger (and, through it, the
 * root) is encoded at once, on the logging thread (the MDC is per thread), by the functions' own
 * {@link JsonLogEncoder}. Parsed with Jackson, which the encoder brings.
 */
public final class JsonLogLines extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Logger logger;
    private final JsonLogEncoder encoder = new JsonLogEncoder();
    private final List<String> lines = new ArrayList<>();

    private JsonLogLines(Logger logger) {
        this.logger = logger;
        setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        encoder.setContext(getContext());
        encoder.start();
        start();
        logger.addAppender(this);
    }

    /** Everything logged, whatever the logger: what the function writes to stdout (at the test's levels). */
    public static JsonLogLines all() {
        return of(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    public static JsonLogLines of(String loggerName) {
        return new JsonLogLines((Logger) LoggerFactory.getLogger(loggerName));
    }

    @Override
    protected void append(ILoggingEvent event) {
        String line = new String(encoder.encode(event), StandardCharsets.UTF_8);
        synchronized (lines) {
            lines.add(line);
        }
    }

    /** The lines as written, each with its line separator. */
    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** Each line parsed; fails on one that is not a single JSON object. */
    public List<ObjectNode> parsed() {
        return lines().stream().map(JsonLogLines::parse).toList();
    }

    /**
     * What every function's log promises, line by line: one JSON object naming the invocation
     * (its "requestId" field, one of {@code requestIds}) and {@code functionName}.
     *
     * @return the lines, parsed
     */
    public List<ObjectNode> assertEachNamesItsInvocation(Collection<String> requestIds, String functionName) {
        List<ObjectNode> parsed = parsed();
        for (ObjectNode line : parsed) {
            assertTrue(
                    requestIds.contains(line.path(LogContext.REQUEST_ID).asText()),
                    "no invocation's requestId: " + line);
            assertEquals(functionName, line.path(LogContext.FUNCTION_NAME).asText(), "functionName: " + line);
        }
        return parsed;
    }

    /** None of {@code texts} (content, a password) appears in any line, in any field or stack trace. */
    public void assertNowhere(String... texts) {
        for (String line : lines()) {
            for (String text : texts) {
                assertFalse(line.contains(text), "logged \"" + text + "\": " + line);
            }
        }
    }

    private static ObjectNode parse(String line) {
        if (line.strip().contains("\n")) {
            throw new AssertionError("not one line: " + line);
        }
        try {
            if (JSON.readTree(line) instanceof ObjectNode object) {
                return object;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSON line: " + line, e);
        }
        throw new AssertionError("not a JSON object: " + line);
    }

    @Override
    public void close() {
        logger.detachAppender(this);
        stop();
        encoder.stop();
    }
}
