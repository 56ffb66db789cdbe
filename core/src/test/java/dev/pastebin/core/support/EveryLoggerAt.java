package dev.pastebin.core.support;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * The root logger at a finer level until closed, as an operator chasing a problem might set it: every logger
 * that sets no level of its own follows it. For tests that prove a secret stays out of the logs even then.
 */
public final class EveryLoggerAt implements AutoCloseable {

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final Level before = root.getLevel();

    private EveryLoggerAt(Level level) {
        root.setLevel(level);
    }

    public static EveryLoggerAt trace() {
        return new EveryLoggerAt(Level.TRACE);
    }

    @Override
    public void close() {
        root.setLevel(before);
    }
}
