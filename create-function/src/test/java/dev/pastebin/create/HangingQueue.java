package dev.pastebin.create;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * An SQS endpoint in a brownout, driven by the test: every call hangs until {@link #fail()}, then answers 500
 * InternalError (as SQS's JSON protocol does), so a test decides exactly when a send fails.
 */
final class HangingQueue implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final CountDownLatch firstCall = new CountDownLatch(1);
    private final CountDownLatch failing = new CountDownLatch(1);

    private HangingQueue(HttpServer server) {
        this.server = server;
    }

    static HangingQueue start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        HangingQueue queue = new HangingQueue(server);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            queue.firstCall.countDown();
            try {
                queue.failing.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "{\"__type\":\"InternalError\",\"message\":\"brownout\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.0");
            exchange.sendResponseHeaders(500, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(queue.handlers);
        server.start();
        return queue;
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Waits (generously) until the first call has arrived and hangs. */
    void awaitFirstCall() throws InterruptedException {
        if (!firstCall.await(2, TimeUnit.MINUTES)) {
            throw new AssertionError("no SQS call arrived");
        }
    }

    /** From now on every call, the hanging ones included, answers 500. */
    void fail() {
        failing.countDown();
    }

    @Override
    public void close() {
        failing.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }
}
