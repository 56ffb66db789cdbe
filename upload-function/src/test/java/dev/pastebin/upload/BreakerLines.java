package dev.pastebin.upload;

import dev.pastebin.core.breaker.BreakerTransitionRecorder;
import dev.pastebin.core.support.JsonLogLines;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Captures the transition lines ({@code pastebin.breaker}) of one breaker as written (JSON), parsed back. */
final class BreakerLines implements AutoCloseable {

    private final JsonLogLines lines = JsonLogLines.of("pastebin.breaker");
    private final ObjectMapper objectMapper;
    private final String breaker;

    BreakerLines(ObjectMapper objectMapper, String breaker) {
        this.objectMapper = objectMapper;
        this.breaker = breaker;
    }

    List<BreakerTransitionRecorder.Line> transitions() {
        return lines.lines().stream()
                .map(this::parse)
                .filter(t -> t.breaker().equals(breaker))
                .toList();
    }

    private BreakerTransitionRecorder.Line parse(String json) {
        try {
            return objectMapper.readValue(json, BreakerTransitionRecorder.Line.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSON transition line: " + json, e);
        }
    }

    @Override
    public void close() {
        lines.close();
    }
}
