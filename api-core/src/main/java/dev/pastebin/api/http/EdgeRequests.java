package dev.pastebin.api.http;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.servlet.http.ServletHttpRequest;
import java.util.Arrays;
import java.util.List;
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
    static final String X_FORWARDED_FOR = "X-Forwarded-For";

    static final String UNKNOWN_ADDRESS = "unknown";

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

    /**
     * The address of the client behind {@code request}, as {@link #clientAddress(HttpRequest, String)} derives it from
     * API Gateway's {@code sourceIp} (payload 2.0); {@code unknown} for a request that did not come from API Gateway
     * (none in production).
     */
    public static String clientAddress(HttpRequest<?> request) {
        String connectionAddress = Optional.of(request)
                .filter(ServletHttpRequest.class::isInstance)
                .map(r -> ((ServletHttpRequest<?, ?>) r).getNativeRequest())
                .filter(APIGatewayV2HTTPEvent.class::isInstance)
                .map(event -> ((APIGatewayV2HTTPEvent) event).getRequestContext())
                .map(APIGatewayV2HTTPEvent.RequestContext::getHttp)
                .map(APIGatewayV2HTTPEvent.RequestContext.Http::getSourceIp)
                .filter(ip -> !ip.isBlank())
                .orElse(UNKNOWN_ADDRESS);
        return clientAddress(request, connectionAddress);
    }

    /**
     * The address of the client behind a request whose connection came from {@code connectionAddress} (API
     * Gateway's {@code sourceIp}). Through the verified edge that is a CloudFront server, and the viewer is the
     * address CloudFront appended to {@code X-Forwarded-For}: the last entry that is not the connection's own
     * (entries before it are whatever the client sent). Anywhere else the connection's address.
     */
    public static String clientAddress(HttpRequest<?> request, String connectionAddress) {
        boolean throughEdge = request.getAttribute(THROUGH_EDGE, Boolean.class).orElse(false);
        String forwardedFor = request.getHeaders().get(X_FORWARDED_FOR);
        if (!throughEdge || forwardedFor == null) {
            return connectionAddress;
        }
        List<String> hops = Arrays.stream(forwardedFor.split(","))
                .map(String::strip)
                .filter(hop -> !hop.isEmpty())
                .toList();
        for (int i = hops.size() - 1; i >= 0; i--) {
            if (!hops.get(i).equals(connectionAddress)) {
                return hops.get(i);
            }
        }
        return connectionAddress;
    }
}
