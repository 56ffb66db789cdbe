package dev.pastebin.upload;

import dev.pastebin.core.support.JsonLogLines;
import io.micronaut.serde.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Captures the upload worker's attempt lines as the functions write them (JSON), parsed back into their fields. */
final class AttemptLines implements AutoCloseable {

    private final JsonLogLines lines = JsonLogLines.of("pastebin.upload.attempts");
    private final ObjectMapper objectMapper;

    AttemptLines(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    List<AttemptLog.Line> all() {
        return lines.lines().stream().map(this::parse).toList();
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
        lines.close();
    }
}
