package dev.pastebin.infra.local;

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
}
