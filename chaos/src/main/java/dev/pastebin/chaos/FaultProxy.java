package dev.pastebin.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.local.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One infra/local/fault_proxy.py process in front of a LocalStack service: the functions reach that service
 * through it, and the suite switches its faults and reads how many S3 PUTs each object key received.
 */
final class FaultProxy implements AutoCloseable {

    /** S3 PUTs of one key: all that reached the proxy, and those it answered with a fault. */
    record PutCount(int attempts, int faulted) {
        int forwarded() {
            return attempts - faulted;
        }
    }

    private static final Pattern LISTENING = Pattern.compile("forwarding http://127\\.0\\.0\\.1:(\\d+) ");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final URI endpoint;

    private FaultProxy(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /** Starts a proxy for {@code service} (s3, sqs) on a free port in front of {@code target}. */
    static FaultProxy start(Path root, String service, String target, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("python3", root.resolve("infra/local/fault_proxy.py").toString(),
                "--service", service, "--port", "0", "--target", target)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        String port = Processes.awaitLine(log, LISTENING, Duration.ofSeconds(20), process).group(1);
        return new FaultProxy(process, URI.create("http://127.0.0.1:" + port));
    }

    String endpoint() {
        return endpoint.toString();
    }

    void switchOn(String mode, Duration duration) {
        control("/_faults?mode=" + mode + "&seconds=" + duration.toMillis() / 1000.0);
    }

    void switchOff() {
        control("/_faults?mode=off");
    }

    /** PUT counts by the object's name (the last path segment: the short code). */
    Map<String, PutCount> putsByObjectName() {
        JsonNode puts = Json.parseOrNull(send(HttpRequest.newBuilder(endpoint.resolve("/_faults/puts")).GET()));
        if (puts == null) {
            throw new IllegalStateException("the fault proxy at " + endpoint + " answered no JSON for its PUT counts");
        }
        Map<String, PutCount> counts = new HashMap<>();
        puts.properties().forEach(e -> counts.merge(e.getKey().substring(e.getKey().lastIndexOf('/') + 1),
                new PutCount(e.getValue().get(0).asInt(), e.getValue().get(1).asInt()),
                (a, b) -> new PutCount(a.attempts() + b.attempts(), a.faulted() + b.faulted())));
        return counts;
    }

    private void control(String pathAndQuery) {
        send(HttpRequest.newBuilder(endpoint.resolve(pathAndQuery)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private byte[] send(HttpRequest.Builder request) {
        try {
            HttpResponse<byte[]> response = HTTP.send(request.timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("the fault proxy at " + endpoint + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException("the fault proxy at " + endpoint + " does not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
    }
}
