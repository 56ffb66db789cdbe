package dev.pastebin.core.logging;

import net.logstash.logback.encoder.LogstashEncoder;
import net.logstash.logback.fieldnames.LogstashFieldNames;

/**
 * One JSON object per log event, one line each (Lambda turns each stdout line into a CloudWatch Logs event;
 * Logs Insights discovers the fields): {@code timestamp}, {@code level}, {@code logger}, {@code message},
 * {@code thread}, the MDC fields ({@link LogContext}), the event's key-value pairs as top-level fields, and
 * {@code stack_trace} when there is one. The settings live here rather than in logback-json.xml so tests
 * encode with exactly what the functions write.
 */
public final class JsonLogEncoder extends LogstashEncoder {

    private static final String IGNORE = "[ignore]";

    public JsonLogEncoder() {
        LogstashFieldNames names = new LogstashFieldNames();
        // "@timestamp" would shadow Logs Insights' own @timestamp (when CloudWatch received the line).
        names.setTimestamp("timestamp");
        names.setLogger("logger");
        names.setThread("thread");
        names.setVersion(IGNORE);
        names.setLevelValue(IGNORE);
        setFieldNames(names);
        setTimeZone("UTC");
    }
}
