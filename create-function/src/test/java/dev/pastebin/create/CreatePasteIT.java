package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.priming.ApiRequestPrimer;
import dev.pastebin.api.priming.RuntimeSerializationPrimer;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.priming.DatabasePrimer;
import dev.pastebin.core.priming.Primer;
import dev.pastebin.core.priming.Priming;
import dev.pastebin.core.priming.UploadQueuePrimer;
import dev.pastebin.core.support.RealServices;
import io.micronaut.crac.test.CheckpointSimulator;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.model.Message;

/** POST /pastes through the real handler: the row, the response, and the upload job on the queue. */
@RealServices
class CreatePasteIT {

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("create-it");

    private UploadJob onlyJob() throws Exception {
        List<Message> messages = world.drainQueue();
        assertEquals(1, messages.size(), "exactly one upload job");
        return world.api
                .context()
                .getBean(UploadJobCodec.class)
                .decode(messages.get(0).body());
    }

    @Test
    void aTextPasteIsStoredInProgressAndItsJobEnqueued() throws Exception {
        HttpApi.Response response = world.api.send(world.api.fixture("create-paste-text"));

        assertEquals(201, response.status(), response.text());
        Map<String, Object> body = world.json(response);
        String code = (String) body.get("shortCode");
        assertTrue(code.matches("[0-9A-Za-z]{11}"), code);
        assertEquals("IN_PROGRESS", body.get("status"));
        assertEquals("https://abc123.execute-api.us-east-1.amazonaws.com/pastes/" + code, body.get("url"));
        assertEquals("/pastes/" + code, response.header("Location"));
        assertTrue(response.header("Content-Type").startsWith("application/json"));

        byte[] content = "Hello from a fixture!\r\n\t".getBytes(StandardCharsets.UTF_8);
        Paste row = world.row(code);
        assertEquals(PasteStatus.IN_PROGRESS, row.status());
        assertEquals(ContentHash.sha256Hex(content), row.contentSha256());
        assertEquals(content.length, row.sizeBytes());
        assertNull(row.userId(), "no authorizer: anonymous");

        // the message is the contract the upload worker decodes
        assertEquals(new UploadJob(code, ContentHash.sha256Hex(content), content), onlyJob());
    }

    @Test
    void aJsonPasteCarriesTheJwtSubjectAsItsUser() throws Exception {
        HttpApi.Response response = world.api.send(world.api.fixture("create-paste-json"));

        assertEquals(201, response.status(), response.text());
        String code = (String) world.json(response).get("shortCode");
        Paste row = world.row(code);
        assertEquals("7d1c9a3e-5b2f-4e61-9c0a-1f2e3d4c5b6a", row.userId());
        byte[] content = "Hello from JSON!".getBytes(StandardCharsets.UTF_8);
        assertEquals(new UploadJob(code, ContentHash.sha256Hex(content), content), onlyJob());
    }

    @Test
    void theCallerComesFromAReplaceableBinder() throws Exception {
        try (HttpApi asTester = HttpApi.start(Map.of(
                "pastebin.upload-queue.url", world.queues.queueUrl(), FixedCallerBinder.PROPERTY, "tester-42"))) {
            HttpApi.Response response = asTester.send(asTester.fixture("create-paste-json"));

            assertEquals(201, response.status(), response.text());
            assertEquals(
                    "tester-42",
                    world.row((String) world.json(response).get("shortCode")).userId());
        }
        onlyJob();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "English, Deutsch: äöüß, Русский, 日本語, 中文, العربية, עברית, हिन्दी",
                "emoji 🧪👩‍💻🏳️‍🌈 and a lone ZWJ \u200d",
                "CRLF\r\nLF\nCR\rTAB\tend\t",
                "\u0000 NUL, \u0007 BEL, \u001b ESC, \u007f DEL, \u00a0 NBSP, \ufeff BOM"
            })
    void theBytesReachTheQueueExactlyInEveryBodyForm(String text) throws Exception {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        String jsonBody = world.api.context().getBean(JsonMapper.class).writeValueAsString(Map.of("content", text));
        List<HttpApi.Request> forms = List.of(
                world.api.fixture("create-paste-text").textBody(text),
                world.api.fixture("create-paste-text").binaryBody(content),
                world.api
                        .fixture("create-paste-text")
                        .header("Content-Type", "text/plain; charset=UTF-8")
                        .binaryBody(content),
                world.api.fixture("create-paste-json").textBody(jsonBody),
                world.api.fixture("create-paste-json").binaryBody(jsonBody.getBytes(StandardCharsets.UTF_8)));
        for (HttpApi.Request form : forms) {
            HttpApi.Response response = world.api.send(form);
            assertEquals(201, response.status(), response.text());
            String code = (String) world.json(response).get("shortCode");
            UploadJob job = onlyJob();
            assertEquals(code, job.shortCode());
            assertArrayEquals(content, job.content());
            assertEquals(ContentHash.sha256Hex(content), world.row(code).contentSha256());
            assertEquals(content.length, world.row(code).sizeBytes());
        }
    }

    @Test
    void withoutAHostHeaderTheUrlIsThePath() throws Exception {
        HttpApi.Response response =
                world.api.send(world.api.fixture("create-paste-text").withoutHeader("Host"));

        assertEquals(201, response.status());
        String code = (String) world.json(response).get("shortCode");
        assertEquals("/pastes/" + code, world.json(response).get("url"));
        onlyJob();
    }

    // SnapStart priming (core.priming): the hot path runs once, nothing is stored or queued, and a restore serves.

    @Test
    void primesTheHandlerTheSuccessPathTheDatabaseAndTheQueueAndNothingElse() {
        Set<Class<?>> primers = world.api.context().getBeansOfType(Primer.class).stream()
                .map(Object::getClass)
                .collect(Collectors.toSet());
        assertEquals(
                Set.of(
                        ApiRequestPrimer.class,
                        RuntimeSerializationPrimer.class,
                        DatabasePrimer.class,
                        UploadQueuePrimer.class,
                        CreatePriming.SuccessPath.class),
                primers);
        assertEquals(
                5,
                world.api.context().getBean(Priming.class).run("test"),
                "every primer succeeds against the real services");
    }

    @Test
    void aCheckpointPrimesWithoutSideEffectsAndTheRestoredFunctionServes() throws Exception {
        long rowsBefore = primingRows();

        CheckpointSimulator snapStart = world.api.context().getBean(CheckpointSimulator.class);
        snapStart.runBeforeCheckpoint();
        snapStart.runAfterRestore();

        assertEquals(rowsBefore, primingRows(), "priming inserted no row");
        assertTrue(world.drainQueue().isEmpty(), "priming queued no job");
        HttpApi.Response created = world.api.send(world.api.fixture("create-paste-text"));
        assertEquals(201, created.status(), created.text());
        onlyJob();
    }

    /**
     * The rows with the priming content's hash: the database is shared with other tests that insert and delete
     * pastes meanwhile, so a count of the whole table is not this test's to compare.
     */
    private static long primingRows() throws Exception {
        try (Connection c = DelegatingDataSource.unwrapDataSource(
                                world.api.context().getBean(DataSource.class))
                        .getConnection();
                var count = c.prepareStatement("SELECT count(*) FROM pastes WHERE content_sha256 = ?")) {
            count.setString(1, ContentHash.sha256Hex("priming".getBytes(StandardCharsets.UTF_8)));
            try (ResultSet r = count.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
