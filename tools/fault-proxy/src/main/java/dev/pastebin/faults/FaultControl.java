package dev.pastebin.faults;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The proxy's HTTP control API, under {@code /_faults} (no S3 bucket can be named so; SQS has no paths):
 * <pre>
 *   POST /_faults?mode=outage|throttle|flaky|down|off[&amp;rate=0.5][&amp;seconds=90]   switch; answers the status
 *   GET  /_faults            {"mode": "outage", "rate": 1.0, "secondsLeft": 89.5, "faulted": 12}
 *   GET  /_faults/puts       object PUTs by key: {"bucket/key": [attempts, faulted], ...}
 *   GET  /_faults/requests   requests by operation, faulted or not: {"s3.PutObject": 3, "sqs.SendMessage": 5, ...}
 * </pre>
 * A bad switch is answered 400 with the reason.
 */
final class FaultControl {

    private static final String ROOT = "/_faults";

    private final FaultProxy proxy;

    FaultControl(FaultProxy proxy) {
        this.proxy = proxy;
    }

    static boolean owns(String path) {
        return path.equals(ROOT) || path.startsWith(ROOT + "/");
    }

    void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String method = exchange.getRequestMethod();
        switch (path) {
            case ROOT -> {
                if ("POST".equals(method)) {
                    switchOn(exchange);
                } else if ("GET".equals(method)) {
                    reply(exchange, 200, status());
                } else {
                    reply(exchange, 405, error("GET or POST " + ROOT));
                }
            }
            case ROOT + "/puts" ->
                reply(
                        exchange,
                        200,
                        object(proxy.putCounts().entrySet().stream()
                                .collect(Collectors.toMap(
                                        Map.Entry::getKey,
                                        e -> "[" + e.getValue().attempts() + ", "
                                                + e.getValue().faulted() + "]"))));
            case ROOT + "/requests" ->
                reply(
                        exchange,
                        200,
                        object(proxy.requestCounts().entrySet().stream()
                                .collect(Collectors.toMap(
                                        Map.Entry::getKey, e -> e.getValue().toString()))));
            default ->
                reply(
                        exchange,
                        404,
                        error("no " + path + "; see " + ROOT + ", " + ROOT + "/puts, " + ROOT + "/requests"));
        }
    }

    private void switchOn(HttpExchange exchange) throws IOException {
        Map<String, String> query = Request.parameters(exchange.getRequestURI().getRawQuery());
        Mode mode;
        double rate;
        Duration lasting;
        try {
            mode = Mode.of(query.getOrDefault("mode", "off"));
            rate = number(query.getOrDefault("rate", "1.0"), "rate");
            lasting = query.get("seconds") == null
                    ? null
                    : Duration.ofMillis(Math.round(number(query.get("seconds"), "seconds") * 1000));
            proxy.switchOn(mode, rate, lasting);
        } catch (IllegalArgumentException e) {
            reply(exchange, 400, error(e.getMessage()));
            return;
        }
        // One line per switch, for whoever watches the proxy's output.
        System.out.printf(
                "[%s-faults] %s%s%s%n",
                proxy.service().label(),
                mode.label(),
                mode == Mode.FLAKY ? " rate=" + rate : "",
                lasting == null ? "" : " for " + lasting.toMillis() / 1000.0 + " s");
        reply(exchange, 200, status());
    }

    private static double number(String text, String name) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is a number, not '" + text + "'");
        }
    }

    private String status() {
        FaultProxy.Status status = proxy.status();
        String left = status.left() == null
                ? "null"
                : String.format(Locale.ROOT, "%.1f", Math.max(0, status.left().toMillis()) / 1000.0);
        return object(Map.of(
                "mode",
                quoted(status.mode().label()),
                "rate",
                Double.toString(status.rate()),
                "secondsLeft",
                left,
                "faulted",
                Integer.toString(status.faulted())));
    }

    /** A JSON object of already-encoded values, keys sorted. */
    private static String object(Map<String, String> encodedValues) {
        return new TreeMap<>(encodedValues)
                .entrySet().stream()
                        .map(e -> quoted(e.getKey()) + ": " + e.getValue())
                        .collect(Collectors.joining(", ", "{", "}"));
    }

    private static String error(String message) {
        return object(Map.of("error", quoted(message)));
    }

    private static String quoted(String text) {
        StringBuilder json = new StringBuilder("\"");
        text.chars().forEach(c -> {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", c));
                    } else {
                        json.append((char) c);
                    }
                }
            }
        });
        return json.append('"').toString();
    }

    private static void reply(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = (json + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }
}
