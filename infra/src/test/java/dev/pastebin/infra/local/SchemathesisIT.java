package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The API against its OpenAPI document, PrivateBin's {@code /pb/} included: {@code infra/local/schemathesis.sh} runs
 * Schemathesis (its examples, coverage, fuzzing and stateful phases) through a local runtime of the built functions
 * with {@code docs/openapi.yaml}, and fails on any 5xx and on any status, content type, header or body the document
 * does not describe. The runtime has a database, queues and a bucket of its own, so it runs beside the other
 * end-to-end tests; its output (Schemathesis's report) is printed whatever the outcome.
 */
@RealServices
class SchemathesisIT {

    /** A first run installs Schemathesis (pip, into ~/.cache/pastebin) before it runs: minutes on a fresh machine. */
    private static final Duration WITHIN = Duration.ofMinutes(14);

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void everyAnswerOfTheApiIsOneItsDocumentDescribes() throws Exception {
        String bucket = "schemathesis-" + UUID.randomUUID().toString().substring(0, 8);
        TestQueues.Pair queue;
        try (var context = ApplicationContext.run()) {
            queue = TestQueues.create(context.getBean(SqsClient.class), "schemathesis", 10, 30);
            context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
        }
        try {
            var run =
                    LocalInvokeIT.run(TestSupport.physicalNames(queue, bucket), WITHIN, "infra/local/schemathesis.sh");
            System.out.println(run.stdout());
            System.err.println(run.stderr());
            assertEquals(0, run.exitCode(), "Schemathesis found answers the document does not describe (above)");
        } finally {
            try (var context = ApplicationContext.run()) {
                TestQueues.delete(context.getBean(SqsClient.class), queue);
            }
        }
    }
}
