package dev.pastebin.api.http;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Keeps the API reachable only through its CloudFront distribution (docs/design.md, "Edge"): CloudFront adds
 * the origin secret in {@code X-Origin-Verify}, and a request without it (someone calling the execute-api
 * address directly, around the WAF and the cache) is answered 403 {@link ApiErrorCode#EDGE_REQUIRED} before any
 * other filter or the route runs. A request that passes is marked as having come through the edge, which is what
 * lets {@link EdgeRequests} trust the headers the edge sets. During a rotation the previous secret passes too,
 * while CloudFront's edges move to the new one (docs/operating.md). Off when no secret, or a blank one, is
 * configured (locally).
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
// a blank secret (sam local's environment files set one) is no secret: the guard stays off
@Requires(property = "pastebin.edge.origin-secret", pattern = ".*\\S.*")
public class EdgeOriginFilter implements Ordered {

    static final String ORIGIN_VERIFY = "X-Origin-Verify";

    private final byte[] secret;
    /** Null outside a rotation. */
    private final byte[] previousSecret;

    public EdgeOriginFilter(EdgeProperties properties) {
        this.secret = properties.originSecret().getBytes(StandardCharsets.UTF_8);
        String previous = properties.previousOriginSecret();
        this.previousSecret = previous == null || previous.isBlank() ? null : previous.getBytes(StandardCharsets.UTF_8);
    }

    @RequestFilter
    public void requireTheEdge(HttpRequest<?> request) {
        String presented = request.getHeaders().get(ORIGIN_VERIFY);
        if (presented == null || !accepted(presented.getBytes(StandardCharsets.UTF_8))) {
            throw new ApiException(ApiErrorCode.EDGE_REQUIRED, "This API is reachable only through its public address");
        }
        request.setAttribute(EdgeRequests.THROUGH_EDGE, Boolean.TRUE);
    }

    /**
     * Constant time, and both secrets compared whatever the first comparison said: the answer's timing must not
     * tell how much of a guess was right, nor which secret it was close to.
     */
    private boolean accepted(byte[] presented) {
        boolean current = MessageDigest.isEqual(secret, presented);
        boolean previous = previousSecret != null && MessageDigest.isEqual(previousSecret, presented);
        // Both comparisons always run (no short circuit), so the time taken does not tell which secret matched.
        @SuppressWarnings("ShortCircuitBoolean")
        boolean either = current | previous;
        return either;
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE;
    }
}
