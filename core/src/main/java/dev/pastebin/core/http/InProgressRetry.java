package dev.pastebin.core.http;

import dev.pastebin.core.breaker.S3CircuitBreaker;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import dev.pastebin.core.paste.PasteStatus;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;

/**
 * The 202 of a paste still being stored, from a read or a reveal: {@code Retry-After}, {@code no-store} and
 * {@code {"shortCode": "…", "status": "IN_PROGRESS"}}.
 */
@Singleton
public class InProgressRetry {

    private static final Logger LOG = LoggerFactory.getLogger(InProgressRetry.class);

    private final S3CircuitBreaker breaker;
    private final ApiProperties apiProperties;
    private final Clock clock = Clock.systemUTC();

    public InProgressRetry(S3CircuitBreaker breaker, ApiProperties apiProperties) {
        this.breaker = breaker;
        this.apiProperties = apiProperties;
    }

    public MutableHttpResponse<?> response(String shortCode, boolean withBody) {
        MutableHttpResponse<Object> response = HttpResponse.accepted()
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(retryAfterSeconds()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .contentType(MediaType.APPLICATION_JSON_TYPE);
        return withBody ? response.body(new PendingPaste(shortCode, PasteStatus.IN_PROGRESS.name())) : response;
    }

    /**
     * The usual wait for a paste being uploaded; while the S3 breaker is open no upload can finish before its
     * next probe, so never sooner than that (docs/design.md, "Circuit breaker").
     */
    public int retryAfterSeconds() {
        int usual = apiProperties.inProgressRetryAfterSeconds();
        try {
            return breaker.nextProbe()
                    .map(probe -> (int) Math.max(usual, Math.ceilDiv(Duration.between(clock.instant(), probe).toMillis(), 1000)))
                    .orElse(usual);
        } catch (RuntimeException e) {
            // The row was just read, so this is a blip: the usual answer is still true, only less precise.
            LOG.warn("could not read the S3 breaker's state: {}", e.toString());
            return usual;
        }
    }
}
