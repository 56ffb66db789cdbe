package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@code infra/admin --local verify --api URL} against the whole local system ({@link LocalRuntimeProcess}: the
 * template's routes and the real function artifacts, PostgreSQL, and queues and a bucket of its own in LocalStack, a
 * moderation outbox dead-letter queue too): every row PASS, or SKIP for what exists only on AWS.
 */
@RealServices
class AdminVerifyIT {

    private static final Set<String> AWS_ONLY = Set.of("api refuses bypass", "alarm actions", "alarm notification");

    private static LocalRuntimeProcess system;
    private static ApplicationContext aws;
    private static String outboxDeadLetterQueueUrl;

    @BeforeAll
    static void start() throws Exception {
        system = LocalRuntimeProcess.shared();
        aws = ApplicationContext.run();
        outboxDeadLetterQueueUrl = aws.getBean(SqsClient.class)
                .createQueue(b -> b.queueName("admin-verify-outbox-dlq-"
                        + UUID.randomUUID().toString().substring(0, 8)))
                .queueUrl();
    }

    @AfterAll
    static void stop() throws Exception {
        if (aws != null) {
            if (outboxDeadLetterQueueUrl != null) {
                aws.getBean(SqsClient.class).deleteQueue(b -> b.queueUrl(outboxDeadLetterQueueUrl));
            }
            aws.close();
        }
    }

    @Test
    void everyLocalRowPassesAndTheAwsOnlyOnesAreSkipped() throws Exception {
        LocalInvokeIT.Run run = verify();
        System.err.println("[admin verify]\n" + run.stdout());

        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        Map<String, String[]> rows = rows(run.stdout());
        assertEquals(
                List.of(
                        "paste round trip",
                        "api refuses bypass",
                        "security.txt",
                        "privatebin /pb/",
                        "schema version",
                        "alarm actions",
                        "alarm notification",
                        "dead-letter queues"),
                List.copyOf(rows.keySet()),
                run.stdout());
        rows.forEach((check, row) -> assertEquals(
                AWS_ONLY.contains(check) ? List.of("SKIP", "AWS only") : List.of("PASS"),
                AWS_ONLY.contains(check) ? List.of(row[0], row[1]) : List.of(row[0]),
                check + ": " + run.stdout()));
        assertTrue(rows.get("paste round trip")[1].endsWith("bytes equal; deleted"), run.stdout());
        assertTrue(rows.get("security.txt")[1].contains("Contact: mailto:abuse@localhost"), run.stdout());
    }

    /** The dead-letter row reads the queues it is given: a message in the outbox's fails it, and the run. */
    @Test
    void aDeadLetterFailsTheRun() throws Exception {
        String queue = aws.getBean(SqsClient.class)
                .createQueue(b -> b.queueName(
                        "admin-verify-held-dlq-" + UUID.randomUUID().toString().substring(0, 8)))
                .queueUrl();
        try {
            aws.getBean(SqsClient.class).sendMessage(b -> b.queueUrl(queue).messageBody("{\"dead\":\"letter\"}"));

            LocalInvokeIT.Run run = verify(queue);

            assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
            String[] row = rows(run.stdout()).get("dead-letter queues");
            assertEquals("FAIL", row[0], run.stdout());
            assertTrue(
                    row[1].startsWith("ModerationOutboxDeadLetterQueue holds 1 (1 visible, 0 in flight)"),
                    run.stdout());
        } finally {
            aws.getBean(SqsClient.class).deleteQueue(b -> b.queueUrl(queue));
        }
    }

    private static LocalInvokeIT.Run verify() throws Exception {
        return verify(outboxDeadLetterQueueUrl);
    }

    /**
     * A busy machine (make test runs test classes side by side) may take most of a minute to start the upload
     * function and store the first paste: the read is given 150 s here rather than the operator's 60.
     */
    private static LocalInvokeIT.Run verify(String outboxDeadLetterQueue) throws Exception {
        return system.admin(
                Map.of(
                        "PASTEBIN_UPLOAD_DLQ_URL",
                        system.queue.deadLetterQueueUrl(),
                        "PASTEBIN_MODERATION_OUTBOX_DLQ_URL",
                        outboxDeadLetterQueue),
                Duration.ofSeconds(240),
                "verify",
                "--api",
                system.baseUrl(),
                "--read-timeout",
                "150");
    }

    /** The table's rows by check: {result, detail}. */
    private static Map<String, String[]> rows(String table) {
        Map<String, String[]> rows = new LinkedHashMap<>();
        List<String> lines = table.lines().toList();
        assertTrue(lines.getFirst().matches("check\\s+result\\s+detail"), table);
        for (String line : lines.subList(1, lines.size())) {
            Matcher row =
                    Pattern.compile("(.+?)\\s+(PASS|FAIL|SKIP)(?:\\s+(.*))?").matcher(line);
            assertTrue(row.matches(), line);
            rows.put(row.group(1), new String[] {row.group(2), row.group(3) == null ? "" : row.group(3)});
        }
        return rows;
    }
}
