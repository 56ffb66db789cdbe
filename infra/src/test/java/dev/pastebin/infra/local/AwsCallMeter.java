package dev.pastebin.infra.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy in front of LocalStack that counts the AWS calls one function makes, by operation
 * ({@code s3.PutObject}, {@code sqs.SendMessage}, {@code secretsmanager.GetSecretValue}), and forwards each one
 * unchanged. The function is pointed at it through the SDK's own {@code AWS_ENDPOINT_URL}. It can answer the
 * next calls of one operation with a 500 instead (an S3 attempt that fails), which it counts too: the function
 * made the call. It counts; the project's fault proxies are for faults.
 */
final class AwsCallMeter implements AutoCloseable {

    /** Headers the JDK client sets itself (or refuses), and hop-by-hop headers. */
    private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect", "upgrade",
            "transfer-encoding", "keep-alive", "date");
    private static final String S3_INTERNAL_ERROR = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>InternalError</Code>"
            + "<Message>We encountered an internal error. Please try again.</Message></Error>";

    private final HttpServer server;
    private final URI target;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();

    private AwsCallMeter(HttpServer server, URI target) {
        this.server = server;
        this.target = target;
    }

    /** Listens on a free port of 127.0.0.1 and forwards to {@code target} (LocalStack's endpoint). */
    static AwsCallMeter start(URI target) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        AwsCallMeter meter = new AwsCallMeter(server, target);
        server.createContext("/", meter::forward);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        return meter;
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The calls so far, by operation. */
    Map<String, Long> read() {
        Map<String, Long> snapshot = new TreeMap<>();
        calls.forEach((operation, count) -> snapshot.put(operation, count.get()));
        return snapshot;
    }

    /** The next {@code times} calls of {@code operation} (e.g. {@code s3.PutObject}) answer 500 InternalError. */
    void failNext(String operation, int times) {
        failures.computeIfAbsent(operation, o -> new AtomicInteger()).addAndGet(times);
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String operation = operation(exchange, body);
            calls.computeIfAbsent(operation, o -> new AtomicLong()).incrementAndGet();
            AtomicInteger failing = failures.get(operation);
            if (failing != null && failing.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                byte[] error = S3_INTERNAL_ERROR.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/xml");
                exchange.sendResponseHeaders(500, error.length);
                exchange.getResponseBody().write(error);
                return;
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().getRawPath()
                            + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery())))
                    .timeout(Duration.ofSeconds(30))
                    .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() >= 400) {
                System.err.println("[aws-meter] " + operation + " answered " + response.statusCode());
            }
            response.headers().map().forEach((name, values) -> {
                String lower = name.toLowerCase(Locale.ROOT);
                if (!lower.equals("transfer-encoding") && !lower.equals("connection") && !lower.startsWith(":")
                        && !(lower.equals("content-length") && !isHead(exchange))) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            byte[] answer = response.body();
            boolean noBody = isHead(exchange) || response.statusCode() == 204 || response.statusCode() == 304;
            exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : answer.length == 0 ? -1 : answer.length);
            if (!noBody && answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static boolean isHead(HttpExchange exchange) {
        return exchange.getRequestMethod().equals("HEAD");
    }

    /**
     * The operation of a request: JSON protocols name it in {@code X-Amz-Target} (SQS, Secrets Manager), the query
     * protocol in {@code Action}, S3 by method and path (path-style: {@code /bucket/key}).
     */
    static String operation(HttpExchange exchange, byte[] body) {
        String amzTarget = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        if (amzTarget != null) {
            String[] parts = amzTarget.split("\\.", 2);
            String service = parts[0].equals("AmazonSQS") ? "sqs" : parts[0].toLowerCase(Locale.ROOT);
            return service + "." + parts[1];
        }
        String contentType = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
        if (contentType.startsWith("application/x-www-form-urlencoded")) {
            String action = Arrays.stream(new String(body, StandardCharsets.UTF_8).split("&"))
                    .filter(p -> p.startsWith("Action=")).map(p -> URLDecoder.decode(p.substring(7), StandardCharsets.UTF_8))
                    .findFirst().orElse("unknown");
            return "sqs." + action;
        }
        String path = exchange.getRequestURI().getPath();
        String query = String.valueOf(exchange.getRequestURI().getQuery());
        boolean objectKey = path.indexOf('/', 1) > 0 && path.indexOf('/', 1) < path.length() - 1;
        String method = exchange.getRequestMethod();
        return "s3." + switch (method) {
            case "GET" -> objectKey ? "GetObject" : query.contains("list-type=2") ? "ListObjectsV2" : "ListObjects";
            case "HEAD" -> objectKey ? "HeadObject" : "HeadBucket";
            case "PUT" -> objectKey ? "PutObject" : "PutBucket";
            case "DELETE" -> objectKey ? "DeleteObject" : "DeleteBucket";
            case "POST" -> query.contains("delete") ? "DeleteObjects" : "Post";
            default -> method;
        };
    }

    @Override
    public void close() {
        server.stop(0);
        client.close();
    }
}
