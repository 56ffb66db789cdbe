package dev.pastebin.core.support;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.Environment;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;

/**
 * Gives the test classes of one JVM a database of their own, for code that works across a whole table (the
 * sweeper deletes and marks every expired row, not only a test's): {@code <database>_<suffix>} next to the
 * configured one, dropped and created afresh once per JVM, and named in the system property
 * {@code datasources.default.url}, which every application context started afterwards uses (system properties
 * override the environment). The migrations are applied to it before the first test. Declare it before {@code @MicronautTest}, so the database exists before the context starts.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(OwnDatabase.Create.class)
public @interface OwnDatabase {

    /** Appended to the configured database's name. */
    String value();

    /** Before all tests, and before a per-class test instance is processed (where a test context may start). */
    final class Create implements BeforeAllCallback, TestInstancePostProcessor {

        private static final String PROPERTY = "datasources.default.url";

        @Override
        public void postProcessTestInstance(Object testInstance, ExtensionContext context) throws SQLException {
            beforeAll(context);
        }

        @Override
        public void beforeAll(ExtensionContext context) throws SQLException {
            use(context.getRequiredTestClass().getAnnotation(OwnDatabase.class).value());
        }

        /** For test engines without Jupiter's extensions (jqwik): creates the database once and selects it. */
        public static void use(String suffix) throws SQLException {
            synchronized (Create.class) {
                String configured = env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin");
                String own = withDatabase(configured, databaseName(configured) + "_" + suffix);
                if (own.equals(System.getProperty(PROPERTY))) {
                    return;
                }
                System.setProperty(PROPERTY, migrated(suffix));
            }
        }

        /**
         * {@code <database>_<suffix>} next to the configured one, dropped, created and migrated afresh, without
         * selecting it: its JDBC URL, for a test that hands it to processes of its own (the local runtime).
         */
        public static String migrated(String suffix) throws SQLException {
            String configured = env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin");
            String own = withDatabase(configured, databaseName(configured) + "_" + suffix);
            recreate(configured, databaseName(own));
            // Flyway holds a connection for its schema history and opens a second one to migrate, so this
            // context needs two whatever the function's pool size; the test environment is named, not
            // deduced from the call stack (which does not always see JUnit from here).
            try (var migrating = ApplicationContext.builder()
                    .environments(Environment.TEST)
                    .properties(Map.of(
                            PROPERTY,
                            own,
                            "flyway.datasources.default.enabled",
                            true,
                            "datasources.default.maximum-pool-size",
                            2))
                    .start()) {
                migrating.getBean(DataSource.class);
            }
            return own;
        }

        private static void recreate(String adminUrl, String name) throws SQLException {
            if (!name.matches("[a-z0-9_]+")) {
                throw new IllegalArgumentException("not a plain database name: " + name);
            }
            try (Connection c = DriverManager.getConnection(
                            adminUrl,
                            env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                            env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
                    var s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                s.execute("CREATE DATABASE " + name);
            }
        }

        /** The database of a {@code jdbc:postgresql://host:port/name?params} URL. */
        static String databaseName(String url) {
            String path = url.substring(url.indexOf("//") + 2);
            String name = path.substring(path.indexOf('/') + 1);
            int query = name.indexOf('?');
            return query < 0 ? name : name.substring(0, query);
        }

        static String withDatabase(String url, String name) {
            int slash = url.indexOf('/', url.indexOf("//") + 2);
            int query = url.indexOf('?', slash);
            return url.substring(0, slash + 1) + name + (query < 0 ? "" : url.substring(query));
        }

        private static String env(String name, String fallback) {
            String value = System.getenv(name);
            return value == null || value.isBlank() ? fallback : value;
        }
    }
}
