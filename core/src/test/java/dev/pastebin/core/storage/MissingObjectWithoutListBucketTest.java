package dev.pastebin.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3 answers a GetObject of a missing key with 403 AccessDenied, not 404 NoSuchKey, to a role without
 * {@code s3:ListBucket}, which no function but the sweeper has. LocalStack does not enforce IAM, so it cannot
 * give that answer: here a local HTTP server gives it, byte for byte as S3 does, and the real SDK client
 * parses it into the S3Exception the store meets in production.
 */
class MissingObjectWithoutListBucketTest {

    private static final String ACCESS_DENIED = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>7B3C1F2A9D8E6F50</RequestId>\
            <HostId>dGhlIGhvc3QgaWQgb2YgYW4gUzMgYW5zd2Vy</HostId></Error>""";

    private HttpServer s3Server;
    private S3Client s3;
    private PasteContentStore store;

    @BeforeEach
    void startS3ThatDeniesWhatItDoesNotHave() throws IOException {
        s3Server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s3Server.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                byte[] body = ACCESS_DENIED.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/xml");
                exchange.getResponseHeaders().add("x-amz-request-id", "7B3C1F2A9D8E6F50");
                exchange.sendResponseHeaders(403, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        s3Server.start();
        s3 = S3Client.builder()
                .endpointOverride(
                        URI.create("http://127.0.0.1:" + s3Server.getAddress().getPort()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .forcePathStyle(true)
                .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD).retryStrategy(b -> b.maxAttempts(1)))
                .build();
        store = new PasteContentStore(s3, new StorageProperties("pastes-bucket", "pastes/"));
    }

    @AfterEach
    void stop() {
        s3.close();
        s3Server.stop(0);
    }

    @Test
    void aMissingObjectAnsweredAccessDeniedIsAbsentNotAStorageMisconfiguration() {
        assertTrue(store.get(store.locationOf("aB3xYz12")).isEmpty());
    }

    @Test
    void aProcessedPasteWhoseObjectIsMissingIsAnInconsistency() {
        byte[] content = "gone".getBytes(StandardCharsets.UTF_8);
        Paste paste = new Paste(
                "aB3xYz12",
                null,
                ContentHash.sha256Hex(content),
                content.length,
                "s3://pastes-bucket/pastes/aB3xYz12",
                PasteStatus.PROCESSED,
                null,
                1,
                null,
                null,
                null,
                null,
                false,
                null,
                null,
                null,
                null);
        var reader = new VerifiedContent(store, new DependencyCalls(new FailureClassifier()));

        var thrown = assertThrows(PasteInconsistencyException.class, () -> reader.of(paste));
        assertEquals("object missing for aB3xYz12", thrown.getMessage());
    }
}
