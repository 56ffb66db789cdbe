package dev.pastebin.local.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.pastebin.local.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The runtime's own pages under {@value #PREFIX}, served before the template's routes are matched:
 * {@code metrics} (the time series as JSON), {@code dashboard.json} (the application's panels, see
 * {@link DashboardPanels}) and {@code dashboard} (an HTML page that draws those panels from the time series).
 * The page loads only its own script and style sheet from the jar; its Content-Security-Policy forbids
 * everything else, inline script included.
 */
public final class DashboardEndpoint implements HttpHandler {

    public static final String PREFIX = "/_local/";

    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private record Asset(String contentType, byte[] body) {}

    private final MetricTimeSeries series;
    private final Map<String, Asset> assets;

    public DashboardEndpoint(MetricTimeSeries series, DashboardPanels panels) {
        this.series = series;
        this.assets = Map.of(
                PREFIX + "dashboard", asset("dashboard.html", "text/html; charset=utf-8"),
                PREFIX + "dashboard.js", asset("dashboard.js", "text/javascript; charset=utf-8"),
                PREFIX + "dashboard.css", asset("dashboard.css", "text/css; charset=utf-8"),
                PREFIX + "dashboard.json", new Asset("application/json", panels.toJson()));
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                send(
                        exchange,
                        405,
                        "application/json",
                        "{\"message\":\"Method Not Allowed\"}".getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (path.equals(PREFIX + "metrics")) {
                send(exchange, 200, "application/json", Json.bytes(series.toJson()));
                return;
            }
            Asset asset = assets.get(path);
            if (asset == null) {
                send(exchange, 404, "application/json", "{\"message\":\"Not Found\"}".getBytes(StandardCharsets.UTF_8));
                return;
            }
            send(exchange, 200, asset.contentType(), asset.body());
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", contentType);
        headers.set("Content-Security-Policy", CSP);
        headers.set("X-Content-Type-Options", "nosniff");
        // The figures change every few seconds; a cached copy would show stale ones.
        headers.set("Cache-Control", "no-store");
        if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    private static Asset asset(String name, String contentType) {
        try (InputStream in = DashboardEndpoint.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " beside " + DashboardEndpoint.class);
            }
            return new Asset(contentType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
