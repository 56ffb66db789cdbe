package dev.pastebin.api.http;

import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.delivery.DeliverySchedule;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 202 of a paste still being stored, from a read or a reveal: {@code Retry-After}, {@code no-store} and
 * {@code {"shortCode": "…", "status": "IN_PROGRESS"}}.
 */
@Singleton
public class InProgressAnswer {

    private static final Logger LOG = LoggerFactory.getLogger(InProgressAnswer.class);

    private final S3CircuitBreaker breaker;
    private final DeliverySchedule schedule;
    private final ApiProperties apiProperties;
    private final Clock clock = Clock.systemUTC();

    public InProgressAnswer(S3CircuitBreaker breaker, DeliverySchedule schedule, ApiProperties apiProperties) {
        this.breaker = breaker;
        this.schedule = schedule;
        this.apiProperties = apiProperties;
    }

    public MutableHttpResponse<?> response(Paste paste, boolean withBody) {
        MutableHttpResponse<Object> response = HttpResponse.accepted()
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(retryAfterSeconds(paste)))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .contentType(MediaType.APPLICATION_JSON_TYPE);
        return withBody ? response.body(new PendingPaste(paste.shortCode(), PasteStatus.IN_PROGRESS.name())) : response;
    }

    /**
     * The usual wait for a paste being uploaded, but never sooner than its upload can next finish
     * (docs/design.md, "Circuit breaker"), which the {@link DeliverySchedule} answers: while the S3 breaker is open,
     * its next probe; while the paste retries slowly, its next S3 attempt.
     */
    public int retryAfterSeconds(Paste paste) {
        Instant now = clock.instant();
        Instant usual = now.plusSeconds(apiProperties.inProgressRetryAfterSeconds());
        Instant upload = schedule.uploadNotBefore(paste, nextProbe());
        Instant notBefore = upload != null && upload.isAfter(usual) ? upload : usual;
        return (int) Math.ceilDiv(Duration.between(now, notBefore).toMillis(), 1000);
    }

    private @Nullable Instant nextProbe() {
        try {
            return breaker.nextProbe().orElse(null);
        } catch (RuntimeException e) {
            // The row was just read, so this is a blip: the rest of the answer is still true, only less precise.
            LOG.warn("could not read the S3 breaker's state: {}", e.toString());
            return null;
        }
    }
}
