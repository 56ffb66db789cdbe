package dev.pastebin.api.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpRequest;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The viewer's host and address: X-Forwarded-Host and X-Forwarded-For only on a request the origin guard verified.
 */
class EdgeRequestsTest {

    private static MutableHttpRequest<?> request() {
        return HttpRequest.POST("/pastes", "x")
                .header("Host", "abc123.execute-api.eu-west-1.amazonaws.com")
                .header("X-Forwarded-Host", "paste.example.org");
    }

    @Test
    void aVerifiedRequestNamesTheViewersHost() {
        MutableHttpRequest<?> request = request();
        request.setAttribute(EdgeRequests.THROUGH_EDGE, Boolean.TRUE);

        assertEquals(Optional.of("paste.example.org"), EdgeRequests.publicHost(request));
    }

    @Test
    void anUnverifiedRequestsForwardedHostIsIgnored() {
        assertEquals(Optional.of("abc123.execute-api.eu-west-1.amazonaws.com"), EdgeRequests.publicHost(request()));
    }

    @Test
    void aVerifiedRequestWithoutAForwardedHostFallsBackToHost() {
        MutableHttpRequest<?> request = HttpRequest.GET("/").header("Host", "localhost:3000");
        request.setAttribute(EdgeRequests.THROUGH_EDGE, Boolean.TRUE);

        assertEquals(Optional.of("localhost:3000"), EdgeRequests.publicHost(request));
    }

    @Test
    void noHostAtAll() {
        assertEquals(Optional.empty(), EdgeRequests.publicHost(HttpRequest.GET("/")));
    }

    @Test
    void behindTheEdgeTheClientIsTheAddressCloudFrontAppended() {
        MutableHttpRequest<?> request = HttpRequest.POST("/pastes/x/report", "x")
                .header("X-Forwarded-For", "6.6.6.6, 203.0.113.7, 130.176.1.2");
        request.setAttribute(EdgeRequests.THROUGH_EDGE, Boolean.TRUE);

        // the connection came from CloudFront (130.176.1.2); what the client wrote before its own address is ignored
        assertEquals("203.0.113.7", EdgeRequests.clientAddress(request, "130.176.1.2"));
        assertEquals("130.176.1.2", EdgeRequests.clientAddress(request, "198.51.100.1"));
    }

    @Test
    void withoutTheEdgeTheClientIsTheConnectionWhateverItForwards() {
        MutableHttpRequest<?> request =
                HttpRequest.POST("/pastes/x/report", "x").header("X-Forwarded-For", "6.6.6.6");

        assertEquals("198.51.100.1", EdgeRequests.clientAddress(request, "198.51.100.1"));
        assertEquals("198.51.100.1", EdgeRequests.clientAddress(HttpRequest.GET("/"), "198.51.100.1"));
    }

    /** A request that did not come from API Gateway has no source address: one placeholder, never a header's value. */
    @Test
    void withoutApiGatewaysEventTheClientIsUnknown() {
        MutableHttpRequest<?> request = HttpRequest.POST("/pastes", "x").header("X-Forwarded-For", "6.6.6.6");

        assertEquals(EdgeRequests.UNKNOWN_ADDRESS, EdgeRequests.clientAddress(request));
    }
}
