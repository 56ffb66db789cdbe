package dev.pastebin.local;

import dev.pastebin.local.cli.RuntimeSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Locations, settings and queues shared by the local runtime's tests. */
public final class TestSupport {

    private TestSupport() {}

    public static Path ricLib() {
        return Path.of(System.getProperty("local-runtime.ric-lib", "target/ric-lib"))
                .toAbsolutePath();
    }

    /** The fixture template whose functions are the test-only handlers in target/test-classes. */
    public static Path fixtureTemplate() {
        Path p = Path.of("target/test-classes/fixture/template.yaml").toAbsolutePath();
        if (!Files.exists(p)) {
            throw new IllegalStateException(p + " is missing; run the tests through Maven");
        }
        return p;
    }

    /** A function JVM's init on a busy machine may take minutes: the tests give it the time, Lambda's limit is not theirs. */
    public static final Duration INIT_TIMEOUT = Duration.ofMinutes(5);

    /** Settings for the fixture template on an ephemeral port. */
    public static RuntimeSettings settings(Map<String, String> physicalNames, List<Path> envVars) {
        return new RuntimeSettings(
                "127.0.0.1",
                0,
                fixtureTemplate(),
                envVars,
                Map.of("Secret", "s3cr3t"),
                physicalNames,
                ricLib(),
                Path.of("target/local-runtime-work"),
                1,
                true,
                null,
                "us-east-1",
                "000000000000",
                null,
                null,
                INIT_TIMEOUT,
                null,
                null,
                null);
    }

    /** An SQS client for LocalStack (endpoint and credentials from the environment Failsafe sets). */
    public static SqsClient sqs() {
        return SqsClient.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .region(Region.US_EAST_1)
                .build();
    }

    /** A queue of its own (unique name) with this visibility timeout; returns its name. */
    public static String createQueue(SqsClient sqs, String prefix, int visibilityTimeoutSeconds) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        sqs.createQueue(b -> b.queueName(name)
                .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(visibilityTimeoutSeconds))));
        return name;
    }

    public static void deleteQueue(SqsClient sqs, String name) {
        sqs.deleteQueue(b -> b.queueUrl(sqs.getQueueUrl(q -> q.queueName(name)).queueUrl()));
    }
}
