package dev.pastebin.core.http;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import java.util.Optional;

/**
 * What a request says about its viewer once it came through the edge (docs/design.md, "Edge"). CloudFront
 * calls API Gateway with API Gateway's own host, so its viewer-request function copies the viewer's host into
 * {@code X-Forwarded-Host}; that header is trusted only on a request {@link EdgeOriginFilter} verified, since
 * anyone can send it directly.
 */
public final class EdgeRequests {

    /** Request attribute {@link EdgeOriginFilter} sets on a request that carried the origin secret. */
    static final String THROUGH_EDGE = EdgeRequests.class.getName() + ".throughEdge";

    static final String X_FORWARDED_HOST = "X-Forwarded-Host";

    private EdgeRequests() {}

    /** The host the client addressed: the edge's forwarded host when verified, else the request's Host. */
    public static Optional<String> publicHost(HttpRequest<?> request) {
        Optional<String> forwarded = request.getAttribute(THROUGH_EDGE, Boolean.class)
                .filter(Boolean::booleanValue)
                .flatMap(verified -> Optional.ofNullable(request.getHeaders().get(X_FORWARDED_HOST)));
        return forwarded
                .or(() -> Optional.ofNullable(request.getHeaders().get(HttpHeaders.HOST)))
                .filter(host -> !host.isBlank());
    }
}
