package dev.pastebin.upload;

import dev.pastebin.core.support.JsonLogLines;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** Captures the upload worker's delivery lines as the functions write them (JSON), parsed back into their fields. */
final class DeliveryLines implements AutoCloseable {

    /** The fields of a delivery line ({@link DeliveryLog}); absent ones are null. */
    record Line(
            String shortCode,
            String messageId,
            int delivery,
            String outcome,
            String errorClass,
            Integer s3Status,
            long latencyMs,
            Integer delaySeconds,
            String detail) {}

    private final JsonLogLines lines = JsonLogLines.of("pastebin.upload.deliveries");
    private final ObjectMapper objectMapper;

    DeliveryLines(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    List<Line> all() {
        return lines.lines().stream().map(this::parse).toList();
    }

    List<Line> of(String shortCode) {
        return all().stream().filter(l -> shortCode.equals(l.shortCode())).toList();
    }

    private Line parse(String json) {
        try {
            Map<String, Object> f = objectMapper.readValue(json, Argument.mapOf(String.class, Object.class));
            return new Line(
                    (String) f.get("shortCode"),
                    (String) f.get("messageId"),
                    number(f, "delivery").intValue(),
                    (String) f.get("outcome"),
                    (String) f.get("errorClass"),
                    integer(f, "s3Status"),
                    number(f, "latencyMs").longValue(),
                    integer(f, "delaySeconds"),
                    (String) f.get("detail"));
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSON delivery line: " + json, e);
        }
    }

    private static Number number(Map<String, Object> fields, String name) {
        return (Number) fields.get(name);
    }

    private static Integer integer(Map<String, Object> fields, String name) {
        Number value = number(fields, name);
        return value == null ? null : value.intValue();
    }

    @Override
    public void close() {
        lines.close();
    }
}
