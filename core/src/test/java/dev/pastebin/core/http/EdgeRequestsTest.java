package dev.pastebin.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpRequest;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The viewer's host: X-Forwarded-Host only on a request the origin guard verified. */
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
}
