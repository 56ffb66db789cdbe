package dev.pastebin.infra.local;

import io.micronaut.context.ApplicationContext;

import javax.sql.DataSource;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/** Locations and set-up shared by the end-to-end tests of the pastebin on the local runtime. */
final class TestSupport {

    private TestSupport() {
    }

    static Path repositoryRoot() {
        return Path.of(System.getProperty("pastebin.root", "..")).toAbsolutePath().normalize();
    }

    /** Applies the migrations to the test database (the runtime never does), as infra/local/up does. */
    static void migrate() {
        try (var context = ApplicationContext.run(Map.of("flyway.datasources.default.enabled", true))) {
            context.getBean(DataSource.class);
        }
    }

    /** The name of the queue at this URL (its last path segment), what --physical-name takes. */
    static String queueName(String queueUrl) {
        String path = URI.create(queueUrl).getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
