package dev.pastebin.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code infra/local/invoke} with every sample event of infra/events against the real template and the
 * real function artifacts (its own queue and bucket), as `sam local invoke -e` would run them.
 */
@RealServices
class RealFunctionsInvokeIT {

    private static TestQueues.Pair queue;
    private static Map<String, String> env;

    @BeforeAll
    static void resources() {
        try (var context = ApplicationContext.run()) {
            queue = TestQueues.create(context.getBean(SqsClient.class), "local-invoke", 10, 30);
            String bucket = "local-invoke-" + UUID.randomUUID().toString().substring(0, 8);
            context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
            env = Map.of("PASTEBIN_UPLOAD_QUEUE_URL", queue.queueUrl(), "PASTEBIN_UPLOAD_DLQ_URL",
                    queue.deadLetterQueueUrl(), "PASTEBIN_STORAGE_BUCKET", bucket);
        }
    }

    @AfterAll
    static void deleteQueue() {
        try (var context = ApplicationContext.run()) {
            TestQueues.delete(context.getBean(SqsClient.class), queue);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "CreatePasteFunction, create-paste-text.json, 201",
            "CreatePasteFunction, create-paste-json.json, 201",
            "ReadPasteFunction,   read-paste.json,        404",
            "ReadPasteFunction,   head-paste.json,        404",
    })
    void httpFunctions(String function, String event, int status) throws Exception {
        var run = LocalInvokeIT.invoke(env, function, "infra/events/" + event);
        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode response = Json.MAPPER.readTree(run.stdout());
        assertEquals(status, response.get("statusCode").asInt(), run.stdout());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "UploadPasteFunction, upload-batch.json,  9e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4",
            "UploadPasteFunction, upload-poison.json, ",
    })
    void uploadFunctionReportsThePoisonMessage(String function, String event, String onlyFailure) throws Exception {
        var run = LocalInvokeIT.invoke(env, function, "infra/events/" + event);
        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode failures = Json.MAPPER.readTree(run.stdout()).get("batchItemFailures");
        assertEquals(1, failures.size(), run.stdout());
        if (onlyFailure != null) {
            assertEquals(onlyFailure, failures.get(0).get("itemIdentifier").asText());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "UploadPasteFunction, upload-job.json",
            "SweeperFunction,     sweeper-scheduled.json",
    })
    void otherFunctionsSucceed(String function, String event) throws Exception {
        var run = LocalInvokeIT.invoke(env, function, "infra/events/" + event);
        assertEquals(0, run.exitCode(), run.stderr());
        Json.MAPPER.readTree(run.stdout());
    }
}
