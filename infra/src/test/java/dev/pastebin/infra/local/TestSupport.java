package dev.pastebin.infra.local;

import io.micronaut.context.ApplicationContext;

import javax.sql.DataSource;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/** Locations and set-up shared by the end-to-end tests of the pastebin on the local runtime. */
final class TestSupport {

    private TestSupport() {
    }

    static Path repositoryRoot() {
        return Path.of(System.getProperty("pastebin.root", "..")).toAbsolutePath().normalize();
    }

    /**
     * The database this test class uses: its own when the class declares {@code @OwnDatabase} (which selects it in
     * the system property {@code datasources.default.url}, as for every application context), else the configured
     * one. The test classes run in two JVMs side by side, and a local runtime sweeps and releases across the whole
     * table, so each class that starts one has a database of its own.
     */
    static String databaseUrl() {
        String own = System.getProperty("datasources.default.url");
        return own != null ? own : env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin");
    }

    /** A plain connection to {@link #databaseUrl()}. */
    static Connection database() throws SQLException {
        return DriverManager.getConnection(databaseUrl(), env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
    }

    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
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
