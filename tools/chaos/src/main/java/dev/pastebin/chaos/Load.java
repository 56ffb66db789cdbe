package dev.pastebin.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.chaos.FaultKind.Route;
import dev.pastebin.local.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The clients: creates at the schedule's rate (several times it during a burst), never more than
 * {@code maxInFlight} requests at once, each create followed by a read of a random earlier paste. Records
 * every answer, and every paste the API accepted with the bytes it must give back.
 */
final class Load {

    /** A paste the API accepted (201). */
    record SentPaste(String shortCode, byte[] content, Instant answeredAt) {}

    /** One request and its answer; status -1 when the local API itself could not be reached. */
    record ApiCall(Route route, Instant sent, Instant answered, int status, String body, String retryAfter) {}

    /**
     * Longer than a cold start plus the function's 20 s timeout: the local runtime allows an init 60 s, and 5 min
     * under the test command (PASTEBIN_LOCAL_INIT_TIMEOUT), where a busy machine may need them.
     */
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(6);

    private final URI api;
    private final ChaosSchedule schedule;
    private final PasteContents contents;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final List<SentPaste> pastes = Collections.synchronizedList(new ArrayList<>());
    private final List<ApiCall> calls = Collections.synchronizedList(new ArrayList<>());
    private final List<String> wrongBytesWhileRunning = Collections.synchronizedList(new ArrayList<>());

    Load(URI api, ChaosSchedule schedule, long seed) {
        this.api = api;
        this.schedule = schedule;
        this.contents = new PasteContents(seed);
    }

    List<SentPaste> pastes() {
        return List.copyOf(pastes);
    }

    List<ApiCall> calls() {
        return List.copyOf(calls);
    }

    /** Short codes whose read during the run answered 200 with other bytes than were posted. */
    List<String> wrongBytesWhileRunning() {
        return List.copyOf(wrongBytesWhileRunning);
    }

    /** Pastes the API accepted so far. */
    int accepted() {
        return pastes.size();
    }

    /**
     * Runs the load from {@code start} until {@code over} holds for the time elapsed since; returns when every
     * request has an answer.
     */
    void run(Instant start, Predicate<Duration> over) throws InterruptedException {
        Semaphore inFlight = new Semaphore(schedule.maxInFlight());
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            double due = 0;
            long created = 0;
            Instant last = start;
            while (true) {
                Instant now = Instant.now();
                Duration elapsed = Duration.between(start, now);
                if (over.test(elapsed)) {
                    break;
                }
                due += schedule.createsPerSecondAt(elapsed)
                        * Duration.between(last, now).toNanos()
                        / 1e9;
                last = now;
                for (; created < (long) due; created++) {
                    inFlight.acquire(); // steady concurrency: when the system is slow, the load waits for it
                    // execute, not submit: an exception createAndReadOne did not expect is printed, not kept in a
                    // Future that nobody reads.
                    clients.execute(() -> {
                        try {
                            createAndReadOne();
                        } finally {
                            inFlight.release();
                        }
                    });
                }
                Thread.sleep(20);
            }
            clients.shutdown();
            clients.awaitTermination(5, TimeUnit.MINUTES);
        }
    }

    private void createAndReadOne() {
        PasteContents.Paste paste = contents.next();
        ApiCall create = call(
                Route.CREATE,
                HttpRequest.newBuilder(api.resolve("/pastes"))
                        .header("Content-Type", paste.contentType())
                        .POST(HttpRequest.BodyPublishers.ofByteArray(paste.body())),
                null);
        if (create.status() == 201) {
            JsonNode created = Json.parseOrNull(create.body().getBytes(StandardCharsets.UTF_8));
            pastes.add(new SentPaste(created.get("shortCode").asText(), paste.content(), create.answered()));
        }
        SentPaste earlier;
        synchronized (pastes) {
            if (pastes.isEmpty()) {
                return;
            }
            earlier = pastes.get(ThreadLocalRandom.current().nextInt(pastes.size()));
        }
        call(
                Route.READ,
                HttpRequest.newBuilder(api.resolve("/pastes/" + earlier.shortCode()))
                        .GET(),
                earlier);
    }

    /** Reads a paste at the end of the run: its status and bytes. */
    HttpResponse<byte[]> read(String shortCode) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(api.resolve("/pastes/" + shortCode))
                        .timeout(REQUEST_TIMEOUT)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private ApiCall call(Route route, HttpRequest.Builder request, SentPaste readBack) {
        Instant sent = Instant.now();
        ApiCall call;
        try {
            HttpResponse<byte[]> response =
                    http.send(request.timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (readBack != null
                    && response.statusCode() == 200
                    && !Arrays.equals(readBack.content(), response.body())) {
                wrongBytesWhileRunning.add(readBack.shortCode());
            }
            // Bodies are kept for creates and errors only: a read's 200 body is the paste itself.
            boolean keepBody = route == Route.CREATE || response.statusCode() >= 300;
            call = new ApiCall(
                    route,
                    sent,
                    Instant.now(),
                    response.statusCode(),
                    keepBody ? new String(response.body(), StandardCharsets.UTF_8) : "",
                    response.headers().firstValue("Retry-After").orElse(null));
        } catch (IOException e) {
            call = new ApiCall(route, sent, Instant.now(), -1, e.toString(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call = new ApiCall(route, sent, Instant.now(), -1, "interrupted", null);
        }
        calls.add(call);
        return call;
    }
}
