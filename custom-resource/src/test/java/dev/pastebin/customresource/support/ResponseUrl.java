package dev.pastebin.customresource.support;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Stands in for CloudFormation's pre-signed S3 URL: keeps the body of every PUT it receives and answers it with
 * {@code status} (200, or S3's refusal, e.g. 403 when a VPC endpoint policy denies the bucket).
 */
public final class ResponseUrl implements AutoCloseable {

    public record Put(String path, String contentType, String body) {}

    /** S3's answer to a PUT it refuses: an XML error document naming the cause. */
    static final String ACCESS_DENIED = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code>"
            + "<Message>Access Denied</Message><RequestId>0A1B2C3D</RequestId></Error>";

    private final HttpServer server;
    private final BlockingQueue<Put> puts = new LinkedBlockingQueue<>();

    /** Answers every PUT with 200. */
    public ResponseUrl() throws IOException {
        this(200);
    }

    /** Answers every PUT with {@code status}; an error status with S3's AccessDenied document. */
    public ResponseUrl(int status) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if ("PUT".equals(exchange.getRequestMethod())) {
                puts.add(new Put(
                        exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("Content-Type"),
                        body));
            }
            if (status >= 200 && status < 300) {
                exchange.sendResponseHeaders(status, -1);
            } else {
                byte[] error = ACCESS_DENIED.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/xml");
                exchange.sendResponseHeaders(status, error.length);
                exchange.getResponseBody().write(error);
            }
            exchange.close();
        });
        server.start();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** The next answer received, waiting for it up to a minute. */
    public Put next() throws InterruptedException {
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
