package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import dev.pastebin.local.Json;
import io.micronaut.context.ApplicationContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * With {@code PASTEBIN_RECORD_CALLS_DIR} set, the local runtime gives the real sweeper artifact the call recorder
 * (tools/call-recorder) as a layer: its scheduled run leaves one line per AWS call, naming the function, the
 * operation, and the environment variables that point at the queue and the bucket it used (its own, here).
 */
@RealServices
class CallRecordingIT {

    @Test
    void theSweepersAwsCallsAreRecordedWithTheVariablesNamingItsQueueAndBucket() throws Exception {
        TestSupport.migrate();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        Path recorded = TestSupport.repositoryRoot().resolve("infra/target/call-recording-it/" + suffix);
        String bucket = "call-recording-" + suffix;
        TestQueues.Pair queue;
        try (var context = ApplicationContext.run()) {
            queue = TestQueues.create(context.getBean(SqsClient.class), "call-recording", 10, 30);
            context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
        }
        try {
            Map<String, String> env = new HashMap<>(TestSupport.physicalNames(queue, bucket));
            env.put("PASTEBIN_RECORD_CALLS_DIR", recorded.toString());

            var run = LocalInvokeIT.invoke(env, "SweeperFunction", "infra/events/sweeper-scheduled.json");
            assertEquals(0, run.exitCode(), run.stdout() + run.stderr());

            // The invocation has returned, and a call returns only once its line is written: every line is there.
            List<Path> files;
            try (var list = Files.list(recorded)) {
                files = list.toList();
            }
            assertEquals(1, files.size(), "one file for the one function process: " + files);
            assertTrue(
                    files.get(0).getFileName().toString().matches("SweeperFunction-\\d+\\.jsonl"),
                    files.get(0).toString());
            List<JsonNode> lines = new ArrayList<>();
            for (String line : Files.readAllLines(files.get(0), StandardCharsets.UTF_8)) {
                lines.add(Json.MAPPER.readTree(line));
            }
            String all = lines.toString();
            assertFalse(lines.isEmpty(), run.stderr());
            assertTrue(
                    lines.stream()
                            .allMatch(l -> l.get("function").asText().equals("SweeperFunction")
                                    && !l.get("presigned").asBoolean(true)),
                    all);

            // the dead letters it re-evaluates: read from the dead-letter queue, named by PASTEBIN_UPLOAD_DLQ_URL
            JsonNode receive = call(lines, "ReceiveMessage");
            assertEquals("Sqs", receive.get("service").asText(), all);
            assertEquals("sqs", receive.get("signingName").asText(), all);
            assertEquals(200, receive.get("status").asInt(), all);
            assertEquals(
                    TestSupport.queueName(queue.deadLetterQueueUrl()),
                    TestSupport.queueName(receive.at("/identifiers/QueueUrl").asText()));
            assertEquals(List.of("PASTEBIN_UPLOAD_DLQ_URL"), strings(receive.at("/env/QueueUrl")), all);

            // the reconciliation lists the keys of each prefix of content in its bucket, named by
            // PASTEBIN_STORAGE_BUCKET (the database is shared with other tests: its expiry step may also list the
            // folder of another test's expired large paste, in that test's bucket, which no variable names)
            List<JsonNode> listings = lines.stream()
                    .filter(l -> l.get("operation").asText().equals("ListObjectsV2")
                            && l.at("/identifiers/Bucket").asText().equals(bucket))
                    .toList();
            assertEquals(
                    Set.of("pastes/", "staging/", "files/"),
                    listings.stream()
                            .map(l -> l.at("/identifiers/Prefix").asText())
                            .collect(Collectors.toSet()),
                    all);
            for (JsonNode list : listings) {
                assertEquals("S3", list.get("service").asText(), all);
                assertEquals("s3", list.get("signingName").asText(), all);
                assertEquals(List.of("PASTEBIN_STORAGE_BUCKET"), strings(list.at("/env/Bucket")), all);
                assertEquals("http", list.get("scheme").asText(), all);
                assertFalse(list.get("host").asText().isBlank(), all);
            }
        } finally {
            try (var context = ApplicationContext.run()) {
                TestQueues.delete(context.getBean(SqsClient.class), queue);
                // the sweep leaves its epoch's marker (sweeper/epoch) in the bucket
                S3Client s3 = context.getBean(S3Client.class);
                s3.listObjectsV2(b -> b.bucket(bucket))
                        .contents()
                        .forEach(o -> s3.deleteObject(b -> b.bucket(bucket).key(o.key())));
                s3.deleteBucket(b -> b.bucket(bucket));
            }
        }
    }

    private static JsonNode call(List<JsonNode> lines, String operation) {
        return lines.stream()
                .filter(l -> l.get("operation").asText().equals(operation))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + operation + " recorded: " + lines));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
