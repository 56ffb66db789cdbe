package dev.pastebin.upload;

import dev.pastebin.core.breaker.S3CircuitBreaker;
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

    List<S3CircuitBreaker.Transition> transitions() {
        return lines.lines().stream()
                .map(this::parse)
                .filter(t -> t.breaker().equals(breaker))
                .toList();
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
        lines.close();
    }
}
