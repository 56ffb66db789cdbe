package dev.pastebin.faults;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A fault-injecting HTTP proxy in front of one AWS service ({@link Service}: S3, SQS or Secrets Manager) of LocalStack, on
 * 127.0.0.1. A client is pointed at it by configuration (an endpoint override, the SDK's
 * {@code AWS_ENDPOINT_URL_S3}), never by a code path. Every request is forwarded unchanged, except:
 * <ul>
 *   <li>while a fault is switched on for everyone ({@link #outage}, {@link #switchOn}): the requests the
 *       service can fault ({@link Service#faultable}: S3's object PUTs, every SQS or Secrets Manager call) get it; a
 *       {@link Fault#DROP_CONNECTION} hits every request;</li>
 *   <li>S3's scripted faults: PUTs of one object name ({@link #failPuts}, {@link #alwaysFailPuts}), every
 *       other object PUT, every GET, every HEAD, DeleteObjects refused key by key.</li>
 * </ul>
 * It counts every request by operation ({@link #requestCounts}) and every object PUT by key. Tests use it
 * in-process; {@link FaultProxyMain} runs it on its own with the HTTP control API of {@link FaultControl}.
 *
 * <p>This class serves the requests and decides each one's fault; the parts are {@link FaultSwitch} (the fault
 * switched on for everyone), {@link ScriptedFaults} (S3's scripts), {@link RequestCounts}, {@link Forwarder} (to the
 * service) and {@link FaultAnswers} (instead of it).
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

    private final Service service;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Forwarder forwarder;
    private final FaultControl control = new FaultControl(this);
    private final FaultSwitch everyone;
    private final ScriptedFaults scripted = new ScriptedFaults();
    private final RequestCounts counts = new RequestCounts();

    /** An S3 proxy on a free port in front of {@code target}. */
    public FaultProxy(URI target) throws IOException {
        this(Service.S3, 0, target);
    }

    /** A proxy for {@code service} on 127.0.0.1:{@code port} (0: a free one) in front of {@code target}. */
    public FaultProxy(Service service, int port, URI target) throws IOException {
        this.service = service;
        this.forwarder = new Forwarder(target);
        this.everyone = new FaultSwitch(service);
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
        return forwarder.target();
    }

    /** The next PUTs of the object named {@code name} (the key's last segment) fail with these faults, in order; later ones pass. */
    public void failPuts(String name, Fault... faults) {
        scripted.failPuts(name, faults);
    }

    /** Every PUT of the object named {@code name} fails with {@code fault}. */
    public void alwaysFailPuts(String name, Fault fault) {
        scripted.alwaysFailPuts(name, fault);
    }

    /** Every request the service can fault fails with {@code fault} until {@link #recover()}: the service is down for everyone. */
    public void outage(Fault fault) {
        everyone.outage(fault);
    }

    /** Switches {@code mode} on at {@code rate} (used by FLAKY only) for {@code lasting}, or until switched off when it is null. */
    public void switchOn(Mode mode, double rate, Duration lasting) {
        everyone.switchOn(mode, rate, lasting);
        if (mode == Mode.OFF) {
            recover();
        }
    }

    /** Switches {@code mode} on for {@code lasting}: the chaos suite's faults. */
    public void switchOn(Mode mode, Duration lasting) {
        switchOn(mode, 1.0, lasting);
    }

    /** Every other object PUT (the 1st, 3rd, ...) fails with {@code fault}: a flaky S3 failing half the calls. */
    public void failEveryOtherPut(Fault fault) {
        scripted.failEveryOtherPut(fault);
    }

    /** Every GET fails with {@code fault} until {@link #recover()}: reads from S3 fail. */
    public void failGets(Fault fault) {
        scripted.failGets(fault);
    }

    /** Every HEAD (HeadObject, HeadBucket) fails with {@code fault} until {@link #recover()}: with {@link #outage}, S3 fails every call a large file's verification makes. */
    public void failHeads(Fault fault) {
        scripted.failHeads(fault);
    }

    /**
     * Every DeleteObjects call is answered as S3 answers a per-key refusal: 200, with an AccessDenied error
     * for each key and nothing deleted.
     */
    public void refuseDeletes() {
        scripted.refuseDeletes();
    }

    /** Switches every fault for everyone off (scripts of single objects stay). */
    public void recover() {
        everyone.off();
        scripted.recover();
    }

    public Status status() {
        FaultSwitch.Switched current = everyone.current();
        Duration left = current.until() == null ? null : Duration.between(Instant.now(), current.until());
        return new Status(current.mode(), current.rate(), left, counts.faults());
    }

    /** Requests that reached the proxy, faulted or not, by operation ({@code s3.PutObject}, {@code sqs.SendMessage}). */
    public Map<String, Integer> requestCounts() {
        return counts.requestsByOperation();
    }

    /** Object PUTs by key ({@code bucket/key}). */
    public Map<String, PutCount> putCounts() {
        return counts.putsByKey();
    }

    /** Object PUTs by the object's name: the key's last segment (the project's short code). */
    public Map<String, PutCount> putsByObjectName() {
        return counts.putsByObjectName();
    }

    /** The number of keys of each DeleteObjects call that reached the proxy, in order. */
    public List<Integer> deleteObjectsCalls() {
        return counts.deleteObjectsCalls();
    }

    /** GET requests that reached the proxy while {@link #failGets} was on (a hung one counts as it starts hanging). */
    public int faultedGetCount() {
        return counts.faultedGets();
    }

    /** Object PUTs of any key that reached the proxy, faulted or not. */
    public int putCount() {
        return counts.objectPuts();
    }

    /** PUTs of the object named {@code name} that reached the proxy, faulted or not. */
    public int putCount(String name) {
        return putsByObjectName().getOrDefault(name, PutCount.NONE).attempts();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (FaultControl.owns(exchange.getRequestURI().getRawPath())) {
                control.handle(exchange);
                return;
            }
            Request request = Request.read(exchange);
            counts.countRequest(service.operation(request));
            if (request.isDeleteObjects()) {
                List<String> keys = request.deletedKeys();
                counts.countDeleteObjects(keys.size());
                if (scripted.refusesDeletes()) {
                    FaultAnswers.refusedDeletes(exchange, keys);
                    return;
                }
            }
            Fault fault = faultFor(request);
            if (fault == null) {
                forwarder.forward(exchange, request);
            } else {
                counts.countFault();
                FaultAnswers.fault(exchange, service, fault);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The fault {@code request} gets, or null: the one switched on for everyone first, else a script's. Every object
     * PUT is counted by key, faulted or not; a GET only when its script faults it.
     */
    private Fault faultFor(Request request) {
        Fault fault = everyone.faultFor(request);
        if (fault == null && request.isGet()) {
            fault = scripted.getFault();
            if (fault != null) {
                counts.countFaultedGet();
            }
        }
        if (fault == null && request.isHead()) {
            fault = scripted.headFault();
        }
        if (service == Service.S3 && request.isObjectPut()) {
            String key = request.objectPath().orElseThrow();
            int nth = counts.countObjectPut();
            if (fault == null) {
                fault = scripted.putFault(Request.objectName(key), nth);
            }
            counts.countPut(key, fault != null);
        }
        return fault;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        forwarder.close();
    }
}
