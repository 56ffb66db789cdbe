package dev.pastebin.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * The Lambda Runtime API (version 2018-06-01) for one execution environment, on 127.0.0.1 and an ephemeral
 * port: the function process long-polls {@code /runtime/invocation/next} and posts the outcome back.
 * One invocation is handed out at a time, as in a Lambda sandbox.
 */
final class RuntimeApiServer implements AutoCloseable {

    private static final String PREFIX = "/2018-06-01/runtime";
    private static final byte[] ACCEPTED = "{\"status\":\"OK\"}".getBytes(StandardCharsets.UTF_8);

    /** An invocation waiting for (or held by) the runtime; completed by /response, /error or by the owner. */
    record Invocation(String requestId, byte[] event, long deadlineEpochMs, String functionArn, String traceId,
                      CompletableFuture<Outcome> outcome) {
    }

    /** The runtime's answer: a response payload, or an error document with its error type. */
    record Outcome(byte[] payload, String errorType) {
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final SynchronousQueue<Invocation> handOff = new SynchronousQueue<>();
    private final CompletableFuture<Outcome> initError = new CompletableFuture<>();
    private final CompletableFuture<Void> polled = new CompletableFuture<>();
    private volatile Invocation current;

    RuntimeApiServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        // A long poll holds a thread; the runtime needs at most one poll plus one post at a time.
        executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "runtime-api");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext(PREFIX + "/", this::handle);
        server.start();
    }

    /** The value of AWS_LAMBDA_RUNTIME_API for the function process. */
    String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** Completes when the runtime reported an init error (it exits right after). */
    CompletableFuture<Outcome> initError() {
        return initError;
    }

    /** Completes the first time the runtime asks for an invocation, i.e. when its init phase is over. */
    CompletableFuture<Void> firstPoll() {
        return polled;
    }

    /** Hands the invocation to the runtime's next poll, waiting at most {@code timeoutMs} for one. */
    boolean offer(Invocation invocation, long timeoutMs) throws InterruptedException {
        return handOff.offer(invocation, timeoutMs, TimeUnit.MILLISECONDS);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
            String method = exchange.getRequestMethod();
            if (method.equals("GET") && path.equals("/invocation/next")) {
                next(exchange);
            } else if (method.equals("POST") && path.equals("/init/error")) {
                initError.complete(new Outcome(readBody(exchange), errorType(exchange)));
                reply(exchange, 202, ACCEPTED);
            } else if (method.equals("POST") && path.startsWith("/invocation/")
                    && (path.endsWith("/response") || path.endsWith("/error"))) {
                String id = path.substring("/invocation/".length(), path.lastIndexOf('/'));
                Invocation inv = current;
                if (inv == null || !inv.requestId().equals(id)) {
                    reply(exchange, 400, ("{\"errorMessage\":\"Invalid request ID\",\"errorType\":\"InvalidRequestID\"}")
                            .getBytes(StandardCharsets.UTF_8));
                    return;
                }
                byte[] body = readBody(exchange);
                current = null;
                inv.outcome().complete(new Outcome(body, path.endsWith("/error") ? errorType(exchange) : null));
                reply(exchange, 202, ACCEPTED);
            } else {
                reply(exchange, 404, "{\"errorMessage\":\"Not Found\"}".getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private void next(HttpExchange exchange) throws IOException {
        polled.complete(null);
        Invocation inv;
        try {
            inv = handOff.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        current = inv;
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", "application/json");
        headers.set("Lambda-Runtime-Aws-Request-Id", inv.requestId());
        headers.set("Lambda-Runtime-Deadline-Ms", Long.toString(inv.deadlineEpochMs()));
        headers.set("Lambda-Runtime-Invoked-Function-Arn", inv.functionArn());
        headers.set("Lambda-Runtime-Trace-Id", inv.traceId());
        reply(exchange, 200, inv.event());
    }

    private static String errorType(HttpExchange exchange) {
        String type = exchange.getRequestHeaders().getFirst("Lambda-Runtime-Function-Error-Type");
        return type == null ? "Unhandled" : type;
    }

    private static byte[] readBody(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            return in.readAllBytes();
        }
    }

    private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
