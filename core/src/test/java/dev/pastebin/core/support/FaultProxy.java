package dev.pastebin.core.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A fault-injecting HTTP proxy in front of LocalStack's S3, on 127.0.0.1. A function is pointed at it by
 * configuration ({@code aws.services.s3.endpoint-override}), not by a code path. PUTs of an object whose key
 * ends in a scripted short code get the scripted faults in order (then pass through, unless the script says
 * "always"); GETs fail while {@link #failGets} says so; everything else is forwarded unchanged.
 */
public final class FaultProxy implements AutoCloseable {

    public enum Fault {
        /** 503 with S3's SlowDown error document. */
        SLOW_DOWN_503,
        /** 500 InternalError. */
        INTERNAL_ERROR_500,
        /** 403 AccessDenied. */
        ACCESS_DENIED_403,
        /** Holds the request for {@link #HANG}, past the client's timeouts, then answers 500. */
        HANG
    }

    // Longer than any S3 timeout a test sets (UploadDeliveryIT uses 6 s), so that a hang is always a TIMEOUT.
    public static final Duration HANG = Duration.ofSeconds(9);

    private static final Set<String> NOT_FORWARDED = Set.of(
            "host", "content-length", "connection", "expect", "upgrade", "transfer-encoding", "keep-alive", "date");

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI target;
    private final Map<String, Deque<Fault>> scripts = new ConcurrentHashMap<>();
    private final Map<String, Fault> always = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> puts = new ConcurrentHashMap<>();
    private final AtomicInteger allPuts = new AtomicInteger();
    private volatile Fault outage;
    private volatile Fault everyOther;
    private volatile Fault gets;
    private final AtomicInteger faultedGets = new AtomicInteger();
    private volatile boolean refuseDeletes;
    private final List<Integer> deleteObjectsKeys = new CopyOnWriteArrayList<>();

    public FaultProxy(URI target) throws IOException {
        this.target = target;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The next PUTs for {@code shortCode} fail with these faults, in order; later ones pass. */
    public void failPuts(String shortCode, Fault... faults) {
        scripts.put(shortCode, new ArrayDeque<>(List.of(faults)));
    }

    /** Every PUT for {@code shortCode} fails with {@code fault}. */
    public void alwaysFailPuts(String shortCode, Fault fault) {
        always.put(shortCode, fault);
    }

    /** Every PUT fails with {@code fault} until {@link #recover()}: S3 is down for everyone. */
    public void outage(Fault fault) {
        this.outage = fault;
    }

    /** Every other PUT (the 1st, 3rd, ...) fails with {@code fault}: a flaky S3 failing half the calls. */
    public void failEveryOtherPut(Fault fault) {
        this.everyOther = fault;
    }

    /** Every GET fails with {@code fault} until {@link #recover()}: reads from S3 fail. */
    public void failGets(Fault fault) {
        this.gets = fault;
    }

    /**
     * Every DeleteObjects call is answered as S3 answers a per-key refusal: 200, with an AccessDenied error
     * for each key and nothing deleted.
     */
    public void refuseDeletes() {
        this.refuseDeletes = true;
    }

    public void recover() {
        this.outage = null;
        this.everyOther = null;
        this.gets = null;
        this.refuseDeletes = false;
    }

    /** The number of keys of each DeleteObjects call that reached the proxy, in order. */
    public List<Integer> deleteObjectsCalls() {
        return List.copyOf(deleteObjectsKeys);
    }

    /** GET requests that reached the proxy while {@link #failGets} was on (a hung one counts as it starts hanging). */
    public int faultedGetCount() {
        return faultedGets.get();
    }

    /** PUT requests of any key that reached the proxy, faulted or not. */
    public int putCount() {
        return allPuts.get();
    }

    /** PUT requests for {@code shortCode} that reached the proxy, faulted or not. */
    public int putCount(String shortCode) {
        AtomicInteger count = puts.get(shortCode);
        return count == null ? 0 : count.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            String path = exchange.getRequestURI().getRawPath();
            Fault getFault = gets;
            if ("GET".equals(exchange.getRequestMethod()) && getFault != null) {
                faultedGets.incrementAndGet();
                inject(exchange, getFault);
                return;
            }
            if ("POST".equals(exchange.getRequestMethod()) && exchange.getRequestURI().getRawQuery() != null
                    && exchange.getRequestURI().getRawQuery().startsWith("delete")) {
                List<String> keys = keysOf(body);
                deleteObjectsKeys.add(keys.size());
                if (refuseDeletes) {
                    refuse(exchange, keys);
                    return;
                }
            }
            if ("PUT".equals(exchange.getRequestMethod())) {
                String code = path.substring(path.lastIndexOf('/') + 1);
                puts.computeIfAbsent(code, c -> new AtomicInteger()).incrementAndGet();
                int n = allPuts.incrementAndGet();
                Fault fault = nextFault(code, n);
                if (fault != null) {
                    inject(exchange, fault);
                    return;
                }
            }
            forward(exchange, body);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Fault nextFault(String code, int n) {
        if (outage != null) {
            return outage;
        }
        if (everyOther != null && n % 2 == 1) {
            return everyOther;
        }
        Fault fault = always.get(code);
        if (fault != null) {
            return fault;
        }
        Deque<Fault> script = scripts.get(code);
        return script == null ? null : script.pollFirst();
    }

    private static void inject(HttpExchange exchange, Fault fault) throws IOException, InterruptedException {
        switch (fault) {
            case SLOW_DOWN_503 -> error(exchange, 503, "SlowDown", "Please reduce your request rate.");
            case INTERNAL_ERROR_500 -> error(exchange, 500, "InternalError", "We encountered an internal error. Please try again.");
            case ACCESS_DENIED_403 -> error(exchange, 403, "AccessDenied", "Access Denied");
            case HANG -> {
                Thread.sleep(HANG.toMillis());
                error(exchange, 500, "InternalError", "too late");
            }
        }
    }

    private static void error(HttpExchange exchange, int status, String code, String message) throws IOException {
        byte[] xml = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>" + message
                + "</Message><RequestId>fault-proxy</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/xml");
        exchange.getResponseHeaders().add("x-amz-request-id", "fault-proxy");
        exchange.sendResponseHeaders(status, xml.length);
        exchange.getResponseBody().write(xml);
    }

    private static List<String> keysOf(byte[] deleteRequest) {
        var keys = new ArrayList<String>();
        var m = Pattern.compile("<Key>(.*?)</Key>").matcher(new String(deleteRequest, StandardCharsets.UTF_8));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    private static void refuse(HttpExchange exchange, List<String> keys) throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DeleteResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
        keys.forEach(key -> xml.append("<Error><Key>").append(key).append("</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"));
        byte[] bytes = xml.append("</DeleteResult>").toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/xml");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private void forward(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        URI uri = URI.create(target + exchange.getRequestURI().toString());
        var request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .method(exchange.getRequestMethod(), body.length == 0
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> request.header(name, value));
            }
        });
        HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        response.headers().map().forEach((name, values) -> {
            if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                values.forEach(value -> exchange.getResponseHeaders().add(name, value));
            }
        });
        byte[] responseBody = response.body();
        boolean noBody = "HEAD".equals(exchange.getRequestMethod()) || responseBody.length == 0;
        exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : responseBody.length);
        if (!noBody) {
            exchange.getResponseBody().write(responseBody);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        client.close();
    }
}
