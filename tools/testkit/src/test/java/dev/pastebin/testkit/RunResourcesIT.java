package dev.pastebin.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pastebin.core.support.RealServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/** The run's resources in the running PostgreSQL (5432) and LocalStack. */
@RealServices
class RunResourcesIT {

    private static final String LOCALSTACK = env("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");
    private static final SqsClient SQS = LocalStack.configure(
                    SqsClient.builder().httpClient(UrlConnectionHttpClient.create()), LOCALSTACK)
            .build();
    private static final S3Client S3 = LocalStack.configure(
                    S3Client.builder().httpClient(UrlConnectionHttpClient.create()), LOCALSTACK)
            .forcePathStyle(true)
            .build();

    private final String run = "it-" + UUID.randomUUID().toString().substring(0, 8);

    @AfterAll
    static void closeClients() {
        SQS.close();
        S3.close();
    }

    @Test
    void aRecreatedDatabaseHasEveryMigrationAndIsGoneOnceDropped() throws SQLException {
        RunDatabase database = new RunDatabase(
                "127.0.0.1",
                Integer.parseInt(env("PGPORT", "5432")),
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"),
                RunNames.of("testkit", run).database());
        try {
            database.recreate();
            try (Connection c = database.connect();
                    Statement st = c.createStatement()) {
                st.execute("INSERT INTO pastes (short_code, content_sha256, size_bytes) VALUES ('abcdefgh', 'x', 1)");
                database.recreate(); // closes this connection, starts empty
            }
            try (Connection c = database.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM pastes")) {
                rs.next();
                assertEquals(0, rs.getInt(1));
            }
            assertEquals(0, database.migrate(), "nothing left to apply");
        } finally {
            database.drop();
        }
        assertThrows(SQLException.class, () -> database.connect().close());
        database.drop(); // nothing to drop
    }

    @Test
    void queuesCreatedOrFoundAreDeletedTogether() {
        RunQueues queues = new RunQueues(SQS);
        String created = queues.create(run + "-a", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "180"));
        String other = SQS.createQueue(b -> b.queueName(run + "-b")).queueUrl();
        assertEquals(other, queues.find(run + "-b"));
        assertEquals(
                "180",
                SQS.getQueueAttributes(b -> b.queueUrl(created).attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT))
                        .attributes()
                        .get(QueueAttributeName.VISIBILITY_TIMEOUT));
        assertEquals(List.of(created, other), queues.urls());

        queues.deleteAll();

        for (String name : List.of(run + "-a", run + "-b")) {
            assertThrows(QueueDoesNotExistException.class, () -> SQS.getQueueUrl(b -> b.queueName(name)));
        }
    }

    @Test
    void aRunsQueuesAndBucketWithItsObjectsAreRemovedByName() {
        RunNames names = RunNames.of("testkit", run);
        SQS.createQueue(b -> b.queueName(names.queue()));
        SQS.createQueue(b -> b.queueName(names.deadLetterQueue()));
        new RunBucket(S3, names.bucket()).create();
        for (int i = 0; i < 3; i++) {
            String key = "pastes/" + i;
            S3.putObject(b -> b.bucket(names.bucket()).key(key), RequestBody.fromString("paste " + key));
        }

        names.removeFrom(SQS, S3);

        for (String name : List.of(names.queue(), names.deadLetterQueue())) {
            assertThrows(QueueDoesNotExistException.class, () -> SQS.getQueueUrl(b -> b.queueName(name)));
        }
        assertThrows(NoSuchBucketException.class, () -> S3.headBucket(b -> b.bucket(names.bucket())));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
