package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Dependencies that are down answer 503 with Retry-After in the error shape. */
@RealServices
class ReadPasteOutageIT {

    @Test
    void whenS3IsUnreachableAProcessedPasteIs503() throws Exception {
        // nothing listens on port 1; the endpoint override is test configuration, never main configuration
        try (HttpApi api = HttpApi.start(Map.of(
                "aws.services.s3.endpoint-override", "http://127.0.0.1:1", "aws.s3.path-style-access-enabled", true))) {
            byte[] content = "stored but unreachable".getBytes(StandardCharsets.UTF_8);
            PasteRepository repository = api.context().getBean(PasteRepository.class);
            String code = api.context().getBean(ShortCodes.class).next();
            repository.save(TestPastes.inProgress(code, null, ContentHash.sha256Hex(content), content.length));
            repository.markProcessed(code, "s3://secret-bucket-name/pastes/" + code);

            HttpApi.Response response =
                    api.send(api.fixture("read-paste").path("/pastes/" + code).requestId("req-s3-down"));

            assertEquals(503, response.status(), response.text());
            assertEquals("5", response.header("Retry-After"));
            Map<String, Object> error = api.context()
                    .getBean(JsonMapper.class)
                    .readValue(response.body(), Argument.mapOf(String.class, Object.class));
            assertEquals("SERVICE_UNAVAILABLE", error.get("code"));
            assertEquals("req-s3-down", error.get("requestId"));
            assertFalse(response.text().contains("secret-bucket-name"));
        }
    }

    @Test
    void whenTheDatabaseIsUnreachableAReadIs503() throws Exception {
        try (HttpApi api = HttpApi.start(Map.of(
                "datasources.default.url",
                "jdbc:postgresql://127.0.0.1:1/pastebin",
                "datasources.default.connection-timeout",
                1000,
                "flyway.datasources.default.enabled",
                false))) {
            HttpApi.Response response = api.send(api.fixture("read-paste").requestId("req-db-down"));

            assertEquals(503, response.status(), response.text());
            assertEquals("5", response.header("Retry-After"));
            Map<String, Object> error = api.context()
                    .getBean(JsonMapper.class)
                    .readValue(response.body(), Argument.mapOf(String.class, Object.class));
            assertEquals("SERVICE_UNAVAILABLE", error.get("code"));
            assertFalse(response.text().contains("jdbc"));
        }
    }
}
