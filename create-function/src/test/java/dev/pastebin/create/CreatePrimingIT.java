package dev.pastebin.create;

import dev.pastebin.core.priming.ApiRequestPrimer;
import dev.pastebin.core.priming.DatabasePrimer;
import dev.pastebin.core.priming.Primer;
import dev.pastebin.core.priming.Priming;
import dev.pastebin.core.priming.UploadQueuePrimer;
import dev.pastebin.core.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.crac.test.CheckpointSimulator;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SnapStart priming of the create function: its hot path runs once, nothing is stored or queued, and a restore serves. */
@RealServices
class CreatePrimingIT {

    private static HttpApi api;
    private static SqsClient sqs;
    private static TestQueues.Pair queues;

    @BeforeAll
    static void start() {
        sqs = SqsClient.create();
        queues = TestQueues.create(sqs, "create-priming-it", 10, 30);
        api = HttpApi.start(Map.of("pastebin.upload-queue.url", queues.queueUrl()));
    }

    @AfterAll
    static void stop() {
        if (api != null) {
            api.close();
        }
        if (queues != null) {
            TestQueues.delete(sqs, queues);
        }
        sqs.close();
    }

    @Test
    void primesTheHandlerTheDatabaseAndTheQueueAndNothingElse() {
        Set<Class<?>> primers = api.context().getBeansOfType(Primer.class).stream().map(Object::getClass)
                .collect(Collectors.toSet());
        assertEquals(Set.of(ApiRequestPrimer.class, DatabasePrimer.class, UploadQueuePrimer.class), primers);
        assertEquals(3, api.context().getBean(Priming.class).run("test"), "every primer succeeds against the real services");
    }

    @Test
    void aCheckpointPrimesWithoutSideEffectsAndTheRestoredFunctionServes() throws Exception {
        long rowsBefore = pasteRows();

        CheckpointSimulator snapStart = api.context().getBean(CheckpointSimulator.class);
        snapStart.runBeforeCheckpoint();
        snapStart.runAfterRestore();

        assertEquals(rowsBefore, pasteRows(), "priming inserted no row");
        assertTrue(Queues.drain(sqs, queues.queueUrl()).isEmpty(), "priming queued no job");
        HttpApi.Response created = api.send(api.fixture("create-paste-text"));
        assertEquals(201, created.status(), created.text());
        assertEquals(1, Queues.drain(sqs, queues.queueUrl()).size());
    }

    private static long pasteRows() throws Exception {
        try (Connection c = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class)).getConnection();
             ResultSet r = c.createStatement().executeQuery("SELECT count(*) FROM pastes")) {
            r.next();
            return r.getLong(1);
        }
    }
}
