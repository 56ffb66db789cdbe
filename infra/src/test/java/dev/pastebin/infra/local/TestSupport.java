package dev.pastebin.infra.local;

import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import javax.sql.DataSource;

/** Locations and set-up shared by the end-to-end tests of the pastebin on the local runtime. */
final class TestSupport {

    private TestSupport() {}

    static Path repositoryRoot() {
        return Path.of(System.getProperty("pastebin.root", ".."))
                .toAbsolutePath()
                .normalize();
    }

    /** Applies the migrations to the test database (the runtime never does), as infra/local/up does. */
    static void migrate() {
        try (var context = ApplicationContext.run(Map.of("flyway.datasources.default.enabled", true))) {
            context.getBean(DataSource.class);
        }
    }

    /**
     * Sends a request as a well-behaved client does: a 503 (say, a cold function's first database connection on a
     * busy machine, beyond its 5 s pool timeout) is sent again after its Retry-After, up to four more times.
     */
    static <T> HttpResponse<T> sendHonouringRetryAfter(
            HttpClient http, HttpRequest request, HttpResponse.BodyHandler<T> body) throws Exception {
        HttpResponse<T> response = http.send(request, body);
        for (int tries = 1; tries < 5 && response.statusCode() == 503; tries++) {
            Thread.sleep(
                    1000L * response.headers().firstValueAsLong("Retry-After").orElse(1));
            response = http.send(request, body);
        }
        return response;
    }

    /** The name of the queue at this URL (its last path segment), what --physical-name takes. */
    static String queueName(String queueUrl) {
        String path = URI.create(queueUrl).getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /**
     * The environment infra/local/lib.sh names the template's queues and bucket after (--physical-name), for a
     * run of the built functions against a queue pair and a bucket of the test's own.
     */
    static Map<String, String> physicalNames(TestQueues.Pair queue, String bucket) {
        return Map.of(
                "PASTEBIN_UPLOAD_QUEUE",
                queueName(queue.queueUrl()),
                "PASTEBIN_UPLOAD_DLQ",
                queueName(queue.deadLetterQueueUrl()),
                "PASTEBIN_STORAGE_BUCKET",
                bucket);
    }
}
