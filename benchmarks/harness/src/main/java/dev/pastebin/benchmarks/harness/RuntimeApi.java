package dev.pastebin.benchmarks.harness;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A minimal Lambda Runtime API (2018-06-01) for one function instance: {@code /invocation/next} hands out
 * queued events, {@code /response} and {@code /error} complete them, {@code /init/error} fails the instance.
 * It records when the runtime first asked for work (the handler is constructed by then) and, for each
 * invocation, the time between handing the event out and receiving the answer. All times are
 * {@link System#nanoTime()} of this JVM, the same clock the launcher reads before starting {@code java}.
 */
final class RuntimeApi implements AutoCloseable {

    private static final String PREFIX = "/2018-06-01/runtime/";

    record Result(boolean ok, String body, long deliveredNanos, long answeredNanos) {
        long latencyNanos() {
            return answeredNanos - deliveredNanos;
        }
    }

    private static final class Invocation {
        final String id = UUID.randomUUID().toString();
        final String payload;
        final CompletableFuture<Result> done = new CompletableFuture<>();
        volatile long delivered;

        Invocation(String payload) {
            this.payload = payload;
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "runtime-api");
        t.setDaemon(true);
        return t;
    });
    private final BlockingQueue<Invocation> pending = new LinkedBlockingQueue<>();
    private final Map<String, Invocation> inFlight = new ConcurrentHashMap<>();
    private final CompletableFuture<String> initError = new CompletableFuture<>();
    private final String functionName;
    private volatile long firstNextNanos;
    private volatile boolean closed;

    RuntimeApi(String functionName) throws IOException {
        this.functionName = functionName;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext(PREFIX, this::handle);
        server.setExecutor(executor);
        server.start();
    }

    String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    long firstNextNanos() {
        return firstNextNanos;
    }

    /** Queues one event and returns when the function answered (or failed, or {@code timeoutSeconds} passed). */
    Result invoke(String payload, int timeoutSeconds) throws Exception {
        Invocation inv = new Invocation(payload);
        pending.add(inv);
        CompletableFuture<Object> either = CompletableFuture.anyOf(inv.done, initError);
        Object r;
        try {
            r = either.get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(functionName + ": no answer within " + timeoutSeconds + " s");
        }
        if (r instanceof String s) {
            throw new IllegalStateException(functionName + ": init error: " + s);
        }
        return (Result) r;
    }

    /** Fails the waiting caller when the process died before answering. */
    void processExited(int code) {
        initError.complete("process exited with status " + code + " before answering");
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath().substring(PREFIX.length());
        byte[] body = ex.getRequestBody().readAllBytes();
        long now = System.nanoTime();
        try {
            if (path.equals("invocation/next") && ex.getRequestMethod().equals("GET")) {
                next(ex, now);
            } else if (path.startsWith("invocation/") && path.endsWith("/response")) {
                complete(ex, path, true, body, now);
            } else if (path.startsWith("invocation/") && path.endsWith("/error")) {
                complete(ex, path, false, body, now);
            } else if (path.equals("init/error")) {
                initError.complete(new String(body, StandardCharsets.UTF_8));
                reply(ex, 202, "{}");
            } else {
                reply(ex, 404, "{\"errorMessage\":\"unknown path\"}");
            }
        } finally {
            ex.close();
        }
    }

    private void next(HttpExchange ex, long now) throws IOException {
        if (firstNextNanos == 0) {
            firstNextNanos = now;
        }
        Invocation inv = null;
        while (inv == null && !closed) {
            try {
                inv = pending.poll(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (inv == null) {
            return;
        }
        inFlight.put(inv.id, inv);
        var h = ex.getResponseHeaders();
        h.set("Content-Type", "application/json");
        h.set("Lambda-Runtime-Aws-Request-Id", inv.id);
        h.set("Lambda-Runtime-Deadline-Ms", Long.toString(System.currentTimeMillis() + 900_000));
        h.set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:" + functionName);
        h.set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Parent=0000000000000000;Sampled=0");
        byte[] bytes = inv.payload.getBytes(StandardCharsets.UTF_8);
        inv.delivered = System.nanoTime();
        ex.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private void complete(HttpExchange ex, String path, boolean ok, byte[] body, long now) throws IOException {
        String id = path.substring("invocation/".length(), path.lastIndexOf('/'));
        Invocation inv = inFlight.remove(id);
        reply(ex, 202, "{\"status\":\"OK\"}");
        if (inv != null) {
            inv.done.complete(new Result(ok, new String(body, StandardCharsets.UTF_8), inv.delivered, now));
        }
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        closed = true;
        server.stop(0);
        executor.shutdownNow();
    }
}
