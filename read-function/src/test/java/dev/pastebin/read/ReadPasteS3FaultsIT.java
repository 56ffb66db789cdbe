package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.faults.FaultProxy;
import dev.pastebin.faults.FaultProxy.Fault;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3 failing under a stored paste's read, through a fault proxy in front of LocalStack: a 5xx or throttling
 * is an outage (503 with Retry-After), a 403 is a deployment error (500, no Retry-After); once S3 answers
 * again the same read is 200 with the bytes, so the fault alone made the difference.
 */
@RealServices
class ReadPasteS3FaultsIT {

    private static final URI LOCALSTACK =
            URI.create(Optional.ofNullable(System.getenv("AWS_ENDPOINT_URL")).orElse("http://127.0.0.1:4566"));

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource({
        "INTERNAL_ERROR_500, 503, SERVICE_UNAVAILABLE",
        "SLOW_DOWN_503,      503, SERVICE_UNAVAILABLE",
        "ACCESS_DENIED_403,  500, INTERNAL_ERROR"
    })
    void aFailingS3IsAnsweredByItsClassAndTheSameReadSucceedsOnceItRecovers(Fault fault, int status, String code)
            throws Exception {
        String bucket = "read-faults-" + UUID.randomUUID().toString().substring(0, 8);
        try (FaultProxy proxy = new FaultProxy(LOCALSTACK);
                HttpApi api = HttpApi.start(Map.of(
                        "aws.services.s3.endpoint-override",
                        proxy.endpoint().toString(),
                        "aws.s3.path-style-access-enabled",
                        true))) {
            byte[] content = ("stored, then unreadable: " + fault).getBytes(StandardCharsets.UTF_8);
            String shortCode = api.context().getBean(ShortCodes.class).next();
            S3Client s3 = api.context().getBean(S3Client.class);
            s3.createBucket(b -> b.bucket(bucket));
            s3.putObject(b -> b.bucket(bucket).key("pastes/" + shortCode), RequestBody.fromBytes(content));
            PasteRepository repository = api.context().getBean(PasteRepository.class);
            repository.save(TestPastes.inProgress(shortCode, null, ContentHash.sha256Hex(content), content.length));
            repository.markProcessed(shortCode, "s3://" + bucket + "/pastes/" + shortCode);

            proxy.failGets(fault);
            HttpApi.Response failed = api.send(
                    api.fixture("read-paste").path("/pastes/" + shortCode).requestId("req-" + fault));

            assertEquals(status, failed.status(), failed.text());
            Map<String, Object> error = api.context()
                    .getBean(JsonMapper.class)
                    .readValue(failed.body(), Argument.mapOf(String.class, Object.class));
            assertEquals(code, error.get("code"), failed.text());
            assertEquals("req-" + fault, error.get("requestId"));
            assertFalse(failed.text().contains(bucket), "no bucket names in responses");
            if (status == 503) {
                assertEquals("5", failed.header("Retry-After"));
            } else {
                assertNull(failed.header("Retry-After"), "retrying cannot fix a policy");
            }

            proxy.recover();
            HttpApi.Response read = api.send(api.fixture("read-paste").path("/pastes/" + shortCode));
            assertEquals(200, read.status(), read.text());
            assertArrayEquals(content, read.body());
        }
    }
}
