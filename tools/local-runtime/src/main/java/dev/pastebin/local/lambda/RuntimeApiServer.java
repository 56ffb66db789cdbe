package dev.pastebin.local.lambda;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The Lambda Runtime API (version 2018-06-01) for one execution environment, on 127.0.0.1 and an ephemeral
 * port: the function process long-polls {@code /runtime/invocation/next} and posts the outcome back.
 * Submitted invocations wait in line until the runtime asks for one; it holds one at a time, as in a
 * Lambda sandbox. Times are {@link System#nanoTime()} of this JVM.
 */
public final class RuntimeApiServer implements AutoCloseable {

    private static final String PREFIX = "/2018-06-01/runtime";
    private static final byte[] ACCEPTED = "{\"status\":\"OK\"}".getBytes(StandardCharsets.UTF_8);
    /** The error type of an invocation whose response exceeded {@link PayloadLimits#RESPONSE_BYTES}. */
    static final String RESPONSE_TOO_LARGE = "Function.ResponseSizeTooLarge";

    /** An event for the runtime; its deadline is {@code timeout} after the runtime received it. */
    public record Invocation(String requestId, byte[] event, Duration timeout, String functionArn, String traceId) {}

    /** The runtime's answer: a response payload, or an error document with its error type. */
    public record Outcome(byte[] payload, String errorType, long answeredNanos) {}

    /** A submitted invocation: when the runtime received it, and what it answered. */
    public record Pending(
            Invocation invocation, CompletableFuture<Long> delivered, CompletableFuture<Outcome> outcome) {}

    private final HttpServer server;
    private final ExecutorService executor;
    private final BlockingQueue<Pending> waiting = new LinkedBlockingQueue<>();
    private final CompletableFuture<Outcome> initError = new CompletableFuture<>();
    private final CompletableFuture<Long> firstPoll = new CompletableFuture<>();
    private volatile Pending current;
    private volatile boolean closed;

    public RuntimeApiServer() throws IOException {
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
    public String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** Completes when the runtime reported an init error (it exits right after). */
    public CompletableFuture<Outcome> initError() {
        return initError;
    }

    /** Completes, with its time, when the runtime first asks for an invocation: its init phase is over. */
    public CompletableFuture<Long> firstPoll() {
        return firstPoll;
    }

    public Pending submit(Invocation invocation) {
        Pending pending = new Pending(invocation, new CompletableFuture<>(), new CompletableFuture<>());
        waiting.add(pending);
        return pending;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
            String method = exchange.getRequestMethod();
            if (method.equals("GET") && path.equals("/invocation/next")) {
                next(exchange);
            } else if (method.equals("POST") && path.equals("/init/error")) {
                initError.complete(new Outcome(readBody(exchange), errorType(exchange), System.nanoTime()));
                reply(exchange, 202, ACCEPTED);
            } else if (method.equals("POST")
                    && path.startsWith("/invocation/")
                    && (path.endsWith("/response") || path.endsWith("/error"))) {
                complete(exchange, path);
            } else {
                reply(exchange, 404, "{\"errorMessage\":\"Not Found\"}".getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private void next(HttpExchange exchange) throws IOException {
        firstPoll.complete(System.nanoTime());
        Pending pending = null;
        try {
            while (pending == null && !closed) {
                pending = waiting.poll(200, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (pending == null) {
            return;
        }
        current = pending;
        Invocation inv = pending.invocation();
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", "application/json");
        headers.set("Lambda-Runtime-Aws-Request-Id", inv.requestId());
        headers.set(
                "Lambda-Runtime-Deadline-Ms",
                Long.toString(System.currentTimeMillis() + inv.timeout().toMillis()));
        headers.set("Lambda-Runtime-Invoked-Function-Arn", inv.functionArn());
        headers.set("Lambda-Runtime-Trace-Id", inv.traceId());
        pending.delivered().complete(System.nanoTime());
        reply(exchange, 200, inv.event());
    }

    private void complete(HttpExchange exchange, String path) throws IOException {
        String id = path.substring("/invocation/".length(), path.lastIndexOf('/'));
        Pending pending = current;
        if (pending == null || !pending.invocation().requestId().equals(id)) {
            reply(
                    exchange,
                    400,
                    "{\"errorMessage\":\"Invalid request ID\",\"errorType\":\"InvalidRequestID\"}"
                            .getBytes(StandardCharsets.UTF_8));
            return;
        }
        byte[] body = readBody(exchange);
        long answered = System.nanoTime();
        current = null;
        if (path.endsWith("/response") && body.length > PayloadLimits.RESPONSE_BYTES) {
            // as Lambda answers a runtime's oversized response: 413, and the invocation fails
            byte[] error = ("{\"errorMessage\":\"Response payload size exceeded maximum allowed payload size ("
                            + PayloadLimits.RESPONSE_BYTES + " bytes).\",\"errorType\":\"" + RESPONSE_TOO_LARGE + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            pending.outcome().complete(new Outcome(error, RESPONSE_TOO_LARGE, answered));
            reply(exchange, 413, error);
            return;
        }
        pending.outcome().complete(new Outcome(body, path.endsWith("/error") ? errorType(exchange) : null, answered));
        reply(exchange, 202, ACCEPTED);
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
        closed = true;
        server.stop(0);
        executor.shutdownNow();
    }
}
