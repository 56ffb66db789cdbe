package dev.pastebin.core.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.DriverManager;
import java.time.Duration;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks an integration test that needs the real PostgreSQL and LocalStack. If either does not answer, the
 * test class fails at once with the reason and the fix; it is never skipped.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RealServices.Check.class)
public @interface RealServices {

    final class Check implements BeforeAllCallback {

        private static final String FIX =
                "Start them with `make up` (infra/local/up), or run the whole suite with `make test`.";

        @Override
        public void beforeAll(ExtensionContext context) {
            checkPostgres();
            checkLocalStack();
        }

        private static void checkPostgres() {
            String url = env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin");
            String user = env("DATASOURCES_DEFAULT_USERNAME", "pastebin");
            String password = env("DATASOURCES_DEFAULT_PASSWORD", "pastebin");
            DriverManager.setLoginTimeout(5);
            try (var connection = DriverManager.getConnection(url, user, password)) {
                connection.createStatement().execute("SELECT 1");
            } catch (Exception e) {
                throw new IllegalStateException(
                        "PostgreSQL is not reachable at " + url + " as " + user + ": " + e.getMessage() + ". " + FIX,
                        e);
            }
        }

        private static void checkLocalStack() {
            String endpoint = env("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");
            URI health = URI.create(endpoint + "/_localstack/health");
            try (var client = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build()) {
                var response = client.send(
                        HttpRequest.newBuilder(health)
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200
                        || !response.body().contains("\"sqs\"")
                        || !response.body().contains("\"s3\"")) {
                    throw new IllegalStateException("LocalStack at " + endpoint + " is not healthy (HTTP "
                            + response.statusCode() + "): " + response.body() + ". " + FIX);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while checking LocalStack", e);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(
                        "LocalStack is not reachable at " + endpoint + ": " + e + ". " + FIX, e);
            }
        }

        private static String env(String name, String fallback) {
            String value = System.getenv(name);
            return value == null || value.isBlank() ? fallback : value;
        }
    }
}
