package dev.pastebin.upload;

import dev.pastebin.core.failure.Failure;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.ObjectMapper;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * One structured JSON line per delivery attempt (docs/design.md, "Observability"), on the logger {@code pastebin.upload.attempts},
 * which logback writes as the bare JSON so CloudWatch Logs Insights parses the fields. Never content.
 *
 * <pre>{"shortCode":"aB3xYz12","messageId":"…","attempt":2,"outcome":"transient","errorClass":"THROTTLING",
 * "s3Status":503,"latencyMs":41,"delaySeconds":4,"detail":"S3Exception: SlowDown (HTTP 503): …"}</pre>
 */
@Singleton
class AttemptLog {

    private static final Logger LOG = LoggerFactory.getLogger("pastebin.upload.attempts");

    private final ObjectMapper objectMapper;

    AttemptLog(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    @Serdeable
    record Line(@Nullable String shortCode, String messageId, int attempt, String outcome, @Nullable String errorClass,
                @Nullable Integer s3Status, long latencyMs, @Nullable Integer delaySeconds, @Nullable String detail) {
    }

    void write(UploadAttempt attempt, Outcome outcome, @Nullable Failure failure, @Nullable Integer delaySeconds,
               @Nullable String detail) {
        var line = new Line(attempt.shortCode(), attempt.message().messageId(), attempt.number(), outcome.label(),
                failure == null ? null : failure.errorClass().name(), failure == null ? null : failure.s3Status(),
                attempt.elapsedMillis(), delaySeconds, detail != null ? detail : failure == null ? null : failure.message());
        String json;
        try {
            json = objectMapper.writeValueAsString(line);
        } catch (IOException e) {
            json = line.toString();
        }
        if (failure != null && failure.unexpected()) {
            LOG.error(json);
        } else {
            switch (outcome) {
                case SUCCESS, DUPLICATE, TRANSIENT, HELD -> LOG.info(json);
                case PERMANENT, EXHAUSTED, POISON -> LOG.warn(json);
            }
        }
    }
}
