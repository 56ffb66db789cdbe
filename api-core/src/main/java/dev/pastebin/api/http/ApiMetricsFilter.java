package dev.pastebin.api.http;

import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.web.router.RouteAttributes;

/**
 * Requests by status code, 503s by the dependency that was down, and latency, for every answer of the HTTP
 * functions, errors included (they reach the filter already rendered by {@link ApiErrorResponseProcessor}).
 * One request is one invocation, so the metrics are flushed here.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public class ApiMetricsFilter {

    private static final String STARTED = ApiMetricsFilter.class.getName() + ".started";

    private final Metrics metrics;

    public ApiMetricsFilter(Metrics metrics) {
        this.metrics = metrics;
    }

    @RequestFilter
    public void start(HttpRequest<?> request) {
        request.setAttribute(STARTED, System.nanoTime());
    }

    @ResponseFilter
    public void record(HttpRequest<?> request, MutableHttpResponse<?> response) {
        metrics.put(Metric.REQUESTS, 1, Integer.toString(response.code()));
        // The exception a handler turned into this response, if any.
        RouteAttributes.getException(response)
                .filter(DependencyUnavailableException.class::isInstance)
                .map(e -> ((DependencyUnavailableException) e).dependency())
                .ifPresent(dependency -> metrics.put(Metric.DEPENDENCY_UNAVAILABLE, 1, dependency.label()));
        request.getAttribute(STARTED, Long.class)
                .ifPresent(started -> metrics.put(Metric.LATENCY, (System.nanoTime() - started) / 1_000_000.0));
        metrics.flush();
    }
}
