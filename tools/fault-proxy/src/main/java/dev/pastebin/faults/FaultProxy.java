package dev.pastebin.faults;

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
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A fault-injecting HTTP proxy in front of one AWS service ({@link Service}: S3, SQS or Secrets Manager) of LocalStack, on
 * 127.0.0.1. A client is pointed at it by configuration (an endpoint override, the SDK's
 * {@code AWS_ENDPOINT_URL_S3}), never by a code path. Every request is forwarded unchanged, except:
 * <ul>
 *   <li>while a fault is switched on for everyone ({@link #outage}, {@link #switchOn}): the requests the
 *       service can fault ({@link Service#faultable}: S3's object PUTs, every SQS or Secrets Manager call) get it; a
 *       {@link Fault#DROP_CONNECTION} hits every request;</li>
 *   <li>S3's scripted faults: PUTs of one object name ({@link #failPuts}, {@link #alwaysFailPuts}), every
 *       other object PUT, every GET, DeleteObjects refused key by key.</li>
 * </ul>
 * It counts every request by operation ({@link #requestCounts}) and every object PUT by key. Tests use it
 * in-process; {@link FaultProxyMain} runs it on its own with the HTTP control API of {@link FaultControl}.
 */
public final class FaultProxy implements AutoCloseable {

    /** What the proxy does instead of forwarding a request. */
    public enum Fault {
        /** 500 InternalError: S3's server error. */
        INTERNAL_ERROR_500(500, "InternalError"),
        /** 503 SlowDown: S3 throttling. */
        SLOW_DOWN_503(503, "SlowDown"),
        /** 403 AccessDenied: a permanent refusal. */
        ACCESS_DENIED_403(403, "AccessDenied"),
        /** 503 ServiceUnavailable: SQS's server error. */
        SERVICE_UNAVAILABLE_503(503, "ServiceUnavailable"),
        /** 500 InternalServiceError: Secrets Manager's server error. */
        INTERNAL_SERVICE_ERROR_500(500, "InternalServiceError"),
        /** 400 ThrottlingException: SQS and Secrets Manager throttling. */
        THROTTLING_400(400, "ThrottlingException"),
        /** Holds the request for {@link #HANG_TIME}, past the client's timeouts, then answers 500. */
        HANG(500, "InternalError"),
        /** Closes the connection without an answer: what a client sees of a service it cannot reach. */
        DROP_CONNECTION(0, "");

        private final int status;
        private final String code;

        Fault(int status, String code) {
            this.status = status;
            this.code = code;
        }

        int status() {
            return status;
        }

        String code() {
            return code;
        }
    }

    /**
     * What the control API reports: the switched-on mode, its rate, the time it has left (null: until switched
     * off), and the faults answered since the proxy started.
     */
    public record Status(Mode mode, double rate, Duration left, int faulted) {}

    /** Longer than any S3 timeout a test sets (UploadDeliveryIT uses 6 s), so that a hang is always a timeout. */
    public static final Duration HANG_TIME = Duration.ofSeconds(9);

    // Headers that describe the hop, not the request; the JDK's HttpClient sets some of them itself.
    private static final Set<String> HOP_HEADERS = Set.of(
            "host",
            "content-length",
            "connection",
            "expect",
            "upgrade",
            "transfer-encoding",
            "keep-alive",
            "date",
            "server");
    private static final Pattern DELETED_KEY = Pattern.compile("<Key>(.*?)</Key>");

    /** A fault switched on for everyone, until {@code until} (null: until switched off). */
    private record Switched(Mode mode, Fault fault, double rate, Instant until) {
        static final Switched OFF = new Switched(Mode.OFF, null, 0, null);

        boolean expired() {
            return until != null && !Instant.now().isBefore(until);
        }
    }

    private final Service service;
    private final URI target;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final FaultControl control = new FaultControl(this);

    private volatile Switched switched = Switched.OFF;
    private final Map<String, Deque<Fault>> scripts = new ConcurrentHashMap<>();
    private final Map<String, Fault> always = new ConcurrentHashMap<>();
    private volatile Fault everyOtherPut;
    private volatile Fault gets;
    private volatile boolean refuseDeletes;

    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final Map<String, PutCount> puts = new ConcurrentHashMap<>();
    private final AtomicInteger objectPuts = new AtomicInteger();
    private final AtomicInteger faulted = new AtomicInteger();
    private final AtomicInteger faultedGets = new AtomicInteger();
    private final List<Integer> deleteObjectsKeys = new CopyOnWriteArrayList<>();

    /** An S3 proxy on a free port in front of {@code target}. */
    public FaultProxy(URI target) throws IOException {
        this(Service.S3, 0, target);
    }

    /** A proxy for {@code service} on 127.0.0.1:{@code port} (0: a free one) in front of {@code target}. */
    public FaultProxy(Service service, int port, URI target) throws IOException {
        this.service = service;
        this.target = URI.create(target.toString().replaceAll("/+$", ""));
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public Service service() {
        return service;
    }

    public URI target() {
        return target;
    }

    /** The next PUTs of the object named {@code name} (the key's last segment) fail with these faults, in order; later ones pass. */
    public void failPuts(String name, Fault... faults) {
        scripts.put(name, new ArrayDeque<>(List.of(faults)));
    }

    /** Every PUT of the object named {@code name} fails with {@code fault}. */
    public void alwaysFailPuts(String name, Fault fault) {
        always.put(name, fault);
    }

    /** Every request the service can fault fails with {@code fault} until {@link #recover()}: the service is down for everyone. */
    public void outage(Fault fault) {
        switched = new Switched(Mode.OUTAGE, fault, 1.0, null);
    }

    /** Switches {@code mode} on at {@code rate} (used by FLAKY only) for {@code lasting}, or until switched off when it is null. */
    public void switchOn(Mode mode, double rate, Duration lasting) {
        if (!(rate >= 0.0 && rate <= 1.0)) {
            throw new IllegalArgumentException("rate is a share in [0, 1], not " + rate);
        }
        if (lasting != null && !lasting.isPositive()) {
            throw new IllegalArgumentException("a fault lasts a positive time, not " + lasting);
        }
        if (mode == Mode.OFF) {
            recover();
            return;
        }
        switched = new Switched(
                mode,
                service.faultOf(mode),
                mode == Mode.FLAKY ? rate : 1.0,
                lasting == null ? null : Instant.now().plus(lasting));
    }

    /** Switches {@code mode} on for {@code lasting}: the chaos suite's faults. */
    public void switchOn(Mode mode, Duration lasting) {
        switchOn(mode, 1.0, lasting);
    }

    /** Every other object PUT (the 1st, 3rd, ...) fails with {@code fault}: a flaky S3 failing half the calls. */
    public void failEveryOtherPut(Fault fault) {
        this.everyOtherPut = fault;
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

    /** Switches every fault for everyone off (scripts of single objects stay). */
    public void recover() {
        switched = Switched.OFF;
        everyOtherPut = null;
        gets = null;
        refuseDeletes = false;
    }

    public Status status() {
        Switched current = current();
        Duration left = current.until() == null ? null : Duration.between(Instant.now(), current.until());
        return new Status(current.mode(), current.rate(), left, faulted.get());
    }

    /** Requests that reached the proxy, faulted or not, by operation ({@code s3.PutObject}, {@code sqs.SendMessage}). */
    public Map<String, Integer> requestCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        requests.forEach((operation, count) -> counts.put(operation, count.get()));
        return counts;
    }

    /** Object PUTs by key ({@code bucket/key}). */
    public Map<String, PutCount> putCounts() {
        return new TreeMap<>(puts);
    }

    /** Object PUTs by the object's name: the key's last segment (the project's short code). */
    public Map<String, PutCount> putsByObjectName() {
        Map<String, PutCount> byName = new HashMap<>();
        puts.forEach((key, count) -> byName.merge(key.substring(key.lastIndexOf('/') + 1), count, PutCount::plus));
        return byName;
    }

    /** The number of keys of each DeleteObjects call that reached the proxy, in order. */
    public List<Integer> deleteObjectsCalls() {
        return List.copyOf(deleteObjectsKeys);
    }

    /** GET requests that reached the proxy while {@link #failGets} was on (a hung one counts as it starts hanging). */
    public int faultedGetCount() {
        return faultedGets.get();
    }

    /** Object PUTs of any key that reached the proxy, faulted or not. */
    public int putCount() {
        return objectPuts.get();
    }

    /** PUTs of the object named {@code name} that reached the proxy, faulted or not. */
    public int putCount(String name) {
        return putsByObjectName().getOrDefault(name, PutCount.NONE).attempts();
    }

    /** The switched-on fault; one whose time is up reads as off. */
    private Switched current() {
        Switched current = switched;
        return current.expired() ? Switched.OFF : current;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (FaultControl.owns(exchange.getRequestURI().getRawPath())) {
                control.handle(exchange);
                return;
            }
            Request request = read(exchange);
            requests.computeIfAbsent(service.operation(request), operation -> new AtomicInteger())
                    .incrementAndGet();
            if (request.isDeleteObjects()) {
                List<String> keys = keysOf(request.body());
                deleteObjectsKeys.add(keys.size());
                if (refuseDeletes) {
                    refuse(exchange, keys);
                    return;
                }
            }
            Fault fault = faultFor(request);
            if (fault == null) {
                forward(exchange, request);
            } else {
                faulted.incrementAndGet();
                inject(exchange, fault);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Fault faultFor(Request request) {
        Switched current = current();
        Fault fault = null;
        if (current.fault() != null
                && (current.fault() == Fault.DROP_CONNECTION || service.faultable(request))
                && (current.rate() >= 1.0 || ThreadLocalRandom.current().nextDouble() < current.rate())) {
            fault = current.fault();
        }
        if (fault == null && request.isGet() && gets != null) {
            faultedGets.incrementAndGet();
            fault = gets;
        }
        if (service == Service.S3 && request.isObjectPut()) {
            String key = request.objectPath().orElseThrow();
            int nth = objectPuts.incrementAndGet();
            if (fault == null) {
                fault = scriptedPutFault(key.substring(key.lastIndexOf('/') + 1), nth);
            }
            puts.merge(key, new PutCount(1, fault == null ? 0 : 1), PutCount::plus);
        }
        return fault;
    }

    private Fault scriptedPutFault(String name, int nth) {
        Fault everyOther = everyOtherPut;
        if (everyOther != null && nth % 2 == 1) {
            return everyOther;
        }
        Fault fault = always.get(name);
        if (fault != null) {
            return fault;
        }
        Deque<Fault> script = scripts.get(name);
        return script == null ? null : script.pollFirst();
    }

    private static Request read(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Map<String, String> headers = new HashMap<>();
        exchange.getRequestHeaders()
                .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.getFirst()));
        return new Request(
                exchange.getRequestMethod(),
                exchange.getRequestURI().getRawPath(),
                exchange.getRequestURI().getRawQuery(),
                headers,
                body);
    }

    private void inject(HttpExchange exchange, Fault fault) throws IOException, InterruptedException {
        switch (fault) {
            // Thrown out of the handler, the server closes the connection with nothing sent.
            case DROP_CONNECTION -> throw new IOException("connection dropped by the fault proxy");
            case HANG -> {
                Thread.sleep(HANG_TIME.toMillis());
                send(exchange, service.error(fault));
            }
            default -> send(exchange, service.error(fault));
        }
    }

    private static void send(HttpExchange exchange, Service.Answer answer) throws IOException {
        byte[] body = answer.bytes();
        exchange.getResponseHeaders().add("Content-Type", answer.contentType());
        answer.headers().forEach(exchange.getResponseHeaders()::add);
        exchange.sendResponseHeaders(answer.status(), body.length);
        exchange.getResponseBody().write(body);
    }

    private static List<String> keysOf(byte[] deleteRequest) {
        var keys = new ArrayList<String>();
        var m = DELETED_KEY.matcher(new String(deleteRequest, StandardCharsets.UTF_8));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    private static void refuse(HttpExchange exchange, List<String> keys) throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<DeleteResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
        keys.forEach(key -> xml.append("<Error><Key>")
                .append(key)
                .append("</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"));
        send(
                exchange,
                new Service.Answer(
                        200,
                        "application/xml",
                        Map.of(),
                        xml.append("</DeleteResult>").toString()));
    }

    private void forward(HttpExchange exchange, Request request) throws IOException, InterruptedException {
        var forwarded = HttpRequest.newBuilder(
                        URI.create(target + exchange.getRequestURI().toString()))
                .timeout(Duration.ofSeconds(60))
                .method(
                        request.method(),
                        request.body().length == 0
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> forwarded.header(name, value));
            }
        });
        HttpResponse<byte[]> response = client.send(forwarded.build(), HttpResponse.BodyHandlers.ofByteArray());
        response.headers().map().forEach((name, values) -> {
            if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                values.forEach(value -> exchange.getResponseHeaders().add(name, value));
            }
        });
        byte[] body = response.body();
        boolean noBody = "HEAD".equals(request.method()) || body.length == 0;
        exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : body.length);
        if (!noBody) {
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        client.close();
    }
}
