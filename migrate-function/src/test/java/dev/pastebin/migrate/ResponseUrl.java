package dev.pastebin.migrate;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Stands in for CloudFormation's pre-signed S3 URL: keeps the body of every PUT it receives. */
final class ResponseUrl implements AutoCloseable {

    record Put(String path, String contentType, String body) {}

    private final HttpServer server;
    private final BlockingQueue<Put> puts = new LinkedBlockingQueue<>();

    ResponseUrl() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if ("PUT".equals(exchange.getRequestMethod())) {
                puts.add(new Put(
                        exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("Content-Type"),
                        body));
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** The next answer received, waiting for it up to a minute. */
    Put next() throws InterruptedException {
        Put put = puts.poll(60, TimeUnit.SECONDS);
        if (put == null) {
            throw new AssertionError("no answer was PUT to the response URL");
        }
        return put;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
