package dev.pastebin.faults;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/** Sends a request on to the service behind the proxy, unchanged but for the hop's headers, and its answer back. */
final class Forwarder implements AutoCloseable {

    // Headers that describe the hop, not the request; the JDK's HttpClient sets some of them itself.
    private static final Set<String> HOP_HEADERS = Set.of(
            "host",
            "content-length",
            "connection",
            "expect",
            "upgrade",
            "transfer-encoding",
            "keep-alive",
            "date",
            "server");

    private final URI target;
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    Forwarder(URI target) {
        this.target = URI.create(target.toString().replaceAll("/+$", ""));
    }

    URI target() {
        return target;
    }

    void forward(HttpExchange exchange, Request request) throws IOException, InterruptedException {
        var forwarded = HttpRequest.newBuilder(
                        URI.create(target + exchange.getRequestURI().toString()))
                .timeout(Duration.ofSeconds(60))
                .method(
                        request.method(),
                        request.body().length == 0
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> forwarded.header(name, value));
            }
        });
        HttpResponse<byte[]> response = client.send(forwarded.build(), HttpResponse.BodyHandlers.ofByteArray());
        response.headers().map().forEach((name, values) -> {
            if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                values.forEach(value -> exchange.getResponseHeaders().add(name, value));
            }
        });
        boolean head = "HEAD".equals(request.method());
        if (head) {
            // A HEAD answer's Content-Length is the size of what a GET would answer (HeadObject's object size), not
            // of a body: the JDK's server sends a HEAD answer's only when it is set by hand.
            response.headers()
                    .firstValue("content-length")
                    .ifPresent(length -> exchange.getResponseHeaders().set("Content-Length", length));
        }
        byte[] body = response.body();
        boolean noBody = head || body.length == 0;
        exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : body.length);
        if (!noBody) {
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
