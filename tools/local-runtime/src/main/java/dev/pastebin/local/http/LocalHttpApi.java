package dev.pastebin.local.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.pastebin.local.Json;
import dev.pastebin.local.lambda.InvocationResult;
import dev.pastebin.local.template.RouteAuthorization;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The local HTTP API: each request becomes a payload-2.0 event for the function whose route matches, and the
 * function's response becomes the HTTP response. A route's JWT authorizer checks the request first and may answer
 * 401 or 403 itself ({@link JwtAuthorizer}). A failed invocation answers 500
 * {@code {"message":"Internal Server Error"}} and an unmatched route 404 {@code {"message":"Not Found"}},
 * as API Gateway does.
 */
public final class LocalHttpApi implements AutoCloseable {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** API Gateway's quota for an HTTP API request: request line and header values together, in bytes. */
    static final int MAX_REQUEST_LINE_AND_HEADERS_BYTES = 10_240;

    /**
     * The JDK's server drops a request with more than 200 headers without any answer. Raising its limit lets
     * the quota above answer them (431), as API Gateway does. The property is read once, when the JDK's server
     * classes are first used (by whichever server starts first), so it is set before any of them starts; an
     * explicit -D setting wins.
     */
    public static void admitManyHeaders() {
        if (System.getProperty("sun.net.httpserver.maxReqHeaders") == null) {
            System.setProperty("sun.net.httpserver.maxReqHeaders", "10000");
        }
    }

    private final HttpApiRoutes routes;
    private final HttpApiEvents.Stage stage;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

    public LocalHttpApi(HttpApiRoutes routes, HttpApiEvents.Stage stage, InetSocketAddress address) throws IOException {
        this.routes = routes;
        this.stage = stage;
        server = HttpServer.create(address, 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
    }

    /**
     * Serves every path under {@code prefix} (e.g. {@code /_local/}) with {@code handler} instead of the
     * template's routes: the runtime's own pages, which no route of the application can shadow.
     */
    public void reserve(String prefix, HttpHandler handler) {
        if (!prefix.startsWith("/") || !prefix.endsWith("/") || prefix.equals("/")) {
            throw new IllegalArgumentException("a reserved prefix looks like /name/, got " + prefix);
        }
        server.createContext(prefix, handler);
    }

    public void start() {
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            HttpApiEvents.Response response = respond(exchange);
            boolean head = exchange.getRequestMethod().equals("HEAD");
            var headers = exchange.getResponseHeaders();
            response.headers().forEach(h -> headers.add(h.getKey(), h.getValue()));
            int length = response.body().length;
            int status = response.statusCode();
            if (head || status == 204 || status == 304 || status < 200) {
                // A HEAD response carries the headers of the GET without a body; 1xx, 204 and 304 have none.
                exchange.sendResponseHeaders(status, -1);
            } else {
                exchange.sendResponseHeaders(response.statusCode(), length == 0 ? -1 : length);
                if (length > 0) {
                    exchange.getResponseBody().write(response.body());
                }
            }
        }
    }

    private HttpApiEvents.Response respond(HttpExchange exchange) {
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        exchange.getRequestHeaders().forEach((name, values) -> values.forEach(v -> headers.add(Map.entry(name, v))));
        String rawPath = exchange.getRequestURI().getRawPath();
        // What API Gateway refuses at its edge, before any route or function: a request too large to hold,
        // control characters in a header (RFC 9110 forbids NUL, CR and LF in a field)
        if (requestLineAndHeadersBytes(exchange, headers) > MAX_REQUEST_LINE_AND_HEADERS_BYTES) {
            return HttpApiEvents.headersTooLarge();
        }
        if (headers.stream().anyMatch(h -> hasControlCharacter(h.getKey()) || hasControlCharacter(h.getValue()))) {
            return HttpApiEvents.badRequest();
        }
        var match = routes.match(exchange.getRequestMethod(), rawPath);
        if (match.isEmpty()) {
            return HttpApiEvents.notFound();
        }
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        } catch (IOException e) {
            // a body shorter than its Content-Length, or broken chunked framing: nothing to hand to a function
            return HttpApiEvents.badRequest();
        }
        String sourceIp = exchange.getRemoteAddress().getAddress().getHostAddress();
        var request = new HttpApiEvents.Request(
                exchange.getRequestMethod(),
                rawPath,
                exchange.getRequestURI().getRawQuery(),
                HttpApiEvents.withEdgeHeaders(headers, sourceIp, port(), traceId()),
                body,
                sourceIp,
                exchange.getProtocol());
        var target = match.get().target();
        Optional<JwtAuthorizer.Authorized> authorized = Optional.empty();
        if (target.authorizer().isPresent()) {
            List<String> scopes = target.route()
                    .authorization()
                    .map(RouteAuthorization::scopes)
                    .orElse(List.of());
            switch (target.authorizer().get().authorize(headers, request.rawQueryString(), scopes)) {
                case JwtAuthorizer.Refused refused -> {
                    return refused.response();
                }
                case JwtAuthorizer.Allowed allowed -> authorized = Optional.of(allowed.context());
            }
        }
        var event = HttpApiEvents.event(
                request, target.route(), match.get().pathParameters(), stage, requestId(), Instant.now());
        authorized.ifPresent(context -> HttpApiEvents.putJwtAuthorizer(event, context));
        try {
            InvocationResult result = target.function().invoke(Json.bytes(event), request.method() + " " + rawPath);
            if (result.failed()) {
                return HttpApiEvents.internalServerError();
            }
            return HttpApiEvents.response(result.payload());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return HttpApiEvents.internalServerError();
        }
    }

    private static int requestLineAndHeadersBytes(HttpExchange exchange, List<Map.Entry<String, String>> headers) {
        int bytes = exchange.getRequestMethod().length()
                + exchange.getRequestURI().toString().length()
                + exchange.getProtocol().length();
        for (Map.Entry<String, String> h : headers) {
            bytes += h.getKey().length() + h.getValue().length();
        }
        return bytes;
    }

    private static boolean hasControlCharacter(String text) {
        return text.chars().anyMatch(c -> (c < 0x20 && c != '\t') || c == 0x7F);
    }

    private static String traceId() {
        byte[] b = new byte[12];
        RANDOM.nextBytes(b);
        return "Root=1-" + Long.toHexString(System.currentTimeMillis() / 1000) + "-"
                + HexFormat.of().formatHex(b);
    }

    /** API Gateway request ids look like "JKJaXmPLvHcESHA=". */
    private static String requestId() {
        byte[] b = new byte[10];
        RANDOM.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
