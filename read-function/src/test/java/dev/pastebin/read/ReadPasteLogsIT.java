package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.DatabaseLoginSecret;
import dev.pastebin.core.support.JsonLogLines;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestPastes;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What the read function logs, as JSON lines: each names its invocation and function, the lines about a paste
 * its short code; neither the content (also not when the stored bytes are inconsistent with the row) nor the
 * database password (from a secret) appears anywhere, from the cold start on.
 */
@RealServices
class ReadPasteLogsIT {

    private static final String BUCKET =
            "read-logs-it-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void everyLineNamesItsInvocationAndNoneQuotesContentOrPassword() {
        String marker = "content-marker-" + UUID.randomUUID();
        byte[] content = ("a paste " + marker).getBytes(StandardCharsets.UTF_8);
        try (DatabaseLoginSecret secret = DatabaseLoginSecret.create();
                JsonLogLines everything = JsonLogLines.all()) {
            Map<String, Object> properties = new HashMap<>(secret.properties());
            properties.put("pastebin.storage.bucket", BUCKET);
            properties.put("aws.s3.path-style-access-enabled", true);
            var readable = TestLambdaContext.withPlentyOfTime();
            var inconsistent = TestLambdaContext.withPlentyOfTime();
            var missing = TestLambdaContext.withPlentyOfTime();
            List<ObjectNode> lines;
            String consistentCode;
            String inconsistentCode;
            String missingCode;
            try (HttpApi api = HttpApi.start(properties)) {
                S3Client s3 = api.context().getBean(S3Client.class);
                s3.createBucket(b -> b.bucket(BUCKET));
                try (JsonLogLines invocations = JsonLogLines.all()) {
                    consistentCode = processed(api, s3, content, content);
                    // the object does not match the row: the read fails, and logs why without the bytes
                    inconsistentCode =
                            processed(api, s3, content, ("other bytes " + marker).getBytes(StandardCharsets.UTF_8));
                    missingCode = api.context().getBean(ShortCodes.class).next();

                    assertEquals(
                            200, api.send(get(api, consistentCode), readable).status());
                    assertEquals(
                            500,
                            api.send(get(api, inconsistentCode), inconsistent).status());
                    assertEquals(404, api.send(get(api, missingCode), missing).status());
                    assertTrue(
                            MDC.getCopyOfContextMap() == null
                                    || MDC.getCopyOfContextMap().isEmpty(),
                            "the MDC is cleared after each invocation: " + MDC.getCopyOfContextMap());

                    lines = invocations.assertEachNamesItsInvocation(
                            Set.of(
                                    readable.getAwsRequestId(),
                                    inconsistent.getAwsRequestId(),
                                    missing.getAwsRequestId()),
                            readable.getFunctionName());
                } finally {
                    s3.listObjectsV2(b -> b.bucket(BUCKET))
                            .contents()
                            .forEach(o -> s3.deleteObject(b -> b.bucket(BUCKET).key(o.key())));
                    s3.deleteBucket(b -> b.bucket(BUCKET));
                }
            }

            everything.assertNowhere(marker, secret.password());
            for (var invocation : Map.of(
                            inconsistent.getAwsRequestId(), inconsistentCode, missing.getAwsRequestId(), missingCode)
                    .entrySet()) {
                List<ObjectNode> about = lines.stream()
                        .filter(l ->
                                invocation.getKey().equals(l.path("requestId").asText()))
                        .toList();
                assertTrue(
                        !about.isEmpty()
                                && about.stream()
                                        .allMatch(l -> invocation
                                                .getValue()
                                                .equals(l.path("shortCode").asText())),
                        "every line of the request for " + invocation.getValue() + " names it: " + lines);
            }
        }
    }

    /** A PROCESSED row for {@code content} whose object holds {@code stored}. */
    private static String processed(HttpApi api, S3Client s3, byte[] content, byte[] stored) {
        PasteRepository repository = api.context().getBean(PasteRepository.class);
        Paste paste = repository.save(TestPastes.inProgress(
                api.context().getBean(ShortCodes.class).next(), null, ContentHash.sha256Hex(content), content.length));
        StorageProperties storage = api.context().getBean(StorageProperties.class);
        s3.putObject(b -> b.bucket(BUCKET).key(storage.objectKey(paste.shortCode())), RequestBody.fromBytes(stored));
        repository.markProcessed(
                paste.shortCode(),
                api.context()
                        .getBean(PasteContentStore.class)
                        .locationOf(paste.shortCode())
                        .uri());
        return paste.shortCode();
    }

    private static HttpApi.Request get(HttpApi api, String shortCode) {
        return api.fixture("read-paste").path("/pastes/" + shortCode);
    }
}
