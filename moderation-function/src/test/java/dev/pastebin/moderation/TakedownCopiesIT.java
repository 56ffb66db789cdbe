package dev.pastebin.moderation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import io.micronaut.core.type.Argument;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Review finding M3: the same content stored under several codes (an abuser posts it again and again before the
 * first report). A takedown that blocks the content takes down every code holding it, each with its tombstone, its
 * audit entry, its edge invalidation and its object's deletion, and every read route of each answers 451. Through
 * ModerationHandler as Lambda invokes it (the event a map), the real PostgreSQL and LocalStack, and the read
 * function's routes through API Gateway's event.
 */
@RealServices
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TakedownCopiesIT {

    private static final String OPERATOR = "arn:aws:iam::000000000000:user/operator";
    /** The read routes, as TakenDownReadIT (read-function) checks them one by one. */
    private static final List<String> READ_ROUTES =
            List.of("/pastes/%s", "/%s", "/%s.py", "/raw/%s", "/raw/%s.txt", "/documents/%s", "/documents/%s.js");

    private final String bucket =
            "takedown-copies-" + UUID.randomUUID().toString().substring(0, 8);
    private final SqsClient sqs = SqsClient.create();
    private final TestQueues.Pair outbox = TestQueues.create(sqs, "takedown-copies-outbox", 3, 30);
    private ApplicationContext context;
    private HttpApi reads;
    private ModerationHandler handler;

    @BeforeAll
    void start() {
        Map<String, Object> properties = new HashMap<>();
        properties.put("pastebin.storage.bucket", bucket);
        properties.put("pastebin.moderation-outbox.url", outbox.queueUrl());
        properties.put("pastebin.outbox.distribution-id", "");
        context = ApplicationContext.builder()
                .environments("test")
                .properties(properties)
                .start();
        context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
        handler = new ModerationHandler(context);
        reads = HttpApi.start(properties);
    }

    @AfterAll
    void stop() {
        reads.close();
        TestQueues.delete(sqs, outbox);
        S3Client s3 = context.getBean(S3Client.class);
        s3.listObjectsV2(l -> l.bucket(bucket))
                .contents()
                .forEach(o -> s3.deleteObject(d -> d.bucket(bucket).key(o.key())));
        s3.deleteBucket(d -> d.bucket(bucket));
        context.close();
        sqs.close();
    }

    /** {@code count} stored pastes of the same content (unique to the run: the blocklist outlives it). */
    private List<Paste> copies(String text, int count) {
        byte[] content = (text + " " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
        String sha256 = ContentHash.sha256Hex(content);
        PasteRepository pastes = context.getBean(PasteRepository.class);
        PasteContentStore store = context.getBean(PasteContentStore.class);
        List<Paste> made = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String code = context.getBean(ShortCodes.class).next();
            pastes.save(TestPastes.inProgress(code, null, sha256, content.length));
            ContentLocation location = store.put(code, content, sha256);
            assertEquals(1, pastes.markProcessed(code, location.uri()));
            made.add(pastes.findById(code).orElseThrow());
        }
        return made;
    }

    private ModerationAnswer command(Map<String, Object> event) {
        return handler.execute(event);
    }

    private ModerationAnswer takedown(String code, Map<String, Object> options) {
        Map<String, Object> event = new HashMap<>(
                Map.of("action", "takedown", "code", code, "reason", "court order 43", "requestedBy", OPERATOR));
        event.putAll(options);
        return command(event);
    }

    private boolean objectExists(String code) {
        PasteContentStore store = context.getBean(PasteContentStore.class);
        return store.get(store.locationOf(code)).isPresent();
    }

    private int status(String path) {
        return reads.send(reads.fixture("read-paste").path(path).header("Accept", "application/json"))
                .status();
    }

    /** Every read route answers 451 PASTE_TAKEN_DOWN. */
    private void assertTakenDownOnEveryReadRoute(String code) throws IOException {
        for (String route : READ_ROUTES) {
            String path = route.formatted(code);
            HttpApi.Response response =
                    reads.send(reads.fixture("read-paste").path(path).header("Accept", "application/json"));
            assertEquals(451, response.status(), path + ": " + response.text());
            assertEquals(
                    "PASTE_TAKEN_DOWN",
                    reads.context()
                            .getBean(JsonMapper.class)
                            .readValue(response.body(), Argument.mapOf(String.class, Object.class))
                            .get("code"),
                    path);
        }
    }

    /** The audit's takedown entries of {@code code}: their hash. */
    private List<String> takedownAudits(String code) throws Exception {
        DataSource raw = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
        try (Connection connection = raw.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT content_sha256 FROM moderation_audit WHERE action = 'takedown' AND short_code = ?")) {
            select.setString(1, code);
            try (ResultSet rows = select.executeQuery()) {
                List<String> hashes = new ArrayList<>();
                while (rows.next()) {
                    hashes.add(rows.getString(1));
                }
                return hashes;
            }
        }
    }

    /** The outbox's messages sent since the last call. */
    private List<Message> drainOutbox() {
        List<Message> messages = new ArrayList<>();
        List<Message> batch;
        do {
            batch = sqs.receiveMessage(r -> r.queueUrl(outbox.queueUrl())
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(1))
                    .messages();
            messages.addAll(batch);
            batch.forEach(
                    m -> sqs.deleteMessage(d -> d.queueUrl(outbox.queueUrl()).receiptHandle(m.receiptHandle())));
        } while (!batch.isEmpty());
        return messages;
    }

    @Test
    void aTakedownTakesDownEveryCodeHoldingTheSameContent() throws Exception {
        List<Paste> copies = copies("posted three times before the first report", 3);
        String reported = copies.get(1).shortCode();
        for (Paste copy : copies) {
            assertEquals(200, status("/raw/" + copy.shortCode()), "readable before the takedown");
        }

        ModerationAnswer answer = takedown(reported, Map.of());

        assertEquals("taken-down", answer.outcome(), answer.toString());
        assertEquals(reported, answer.code());
        assertEquals("deleted", answer.objectDeletion(), answer.toString());
        assertEquals(
                Stream.of(copies.get(0), copies.get(2))
                        .map(Paste::shortCode)
                        .sorted()
                        .toList(),
                answer.copies(),
                "the other codes, in order");
        for (Paste copy : copies) {
            String code = copy.shortCode();
            assertTakenDownOnEveryReadRoute(code);
            assertFalse(objectExists(code), code + ": object deleted");
            assertTrue(context.getBean(PasteRepository.class).findById(code).isEmpty(), code + ": row removed");
            assertTrue(context.getBean(TakedownRepository.class).existsById(code), code + ": tombstone");
            assertEquals(List.of(copy.contentSha256()), takedownAudits(code), code + ": one takedown audited");
        }
        List<String> invalidated = drainOutbox().stream().map(Message::body).toList();
        assertEquals(3, invalidated.size(), "one invalidation each: " + invalidated);
        for (Paste copy : copies) {
            assertTrue(
                    invalidated.stream().anyMatch(b -> b.contains("/raw/" + copy.shortCode() + "*")),
                    copy.shortCode() + " invalidated: " + invalidated);
        }
    }

    /**
     * With onlyThisCode (infra/admin's --only-this-code) or block false (--keep-content-allowed), the one code is
     * taken down and the answer lists the copies it left, which stay readable; {@code copies} lists the codes
     * holding the content, by a code (also one taken down: its tombstone's hash) or by the hash; {@code block} lists
     * them and leaves them readable.
     */
    @Test
    void onlyThisCodeLeavesTheCopiesReadableAndListsThemAsCopiesDoes() throws Exception {
        List<Paste> copies = copies("reported once, posted three times", 3);
        List<String> codes = copies.stream().map(Paste::shortCode).sorted().toList();
        String sha256 = copies.getFirst().contentSha256();
        String reported = codes.getFirst();

        ModerationAnswer copiesAnswer = command(Map.of("action", "copies", "code", reported));
        assertEquals("copies", copiesAnswer.outcome(), copiesAnswer.toString());
        assertEquals(sha256, copiesAnswer.sha256());
        assertEquals(codes, copiesAnswer.copies());
        assertFalse(copiesAnswer.blocked());

        ModerationAnswer answer = takedown(reported, Map.of("onlyThisCode", true));

        assertEquals("taken-down", answer.outcome(), answer.toString());
        assertTrue(answer.blocked(), "the content is blocklisted all the same");
        assertEquals(codes.subList(1, 3), answer.copiesLeft());
        assertEquals(null, answer.copies());
        assertTrue(answer.note().contains("stay readable (copiesLeft)"), answer.note());
        assertTakenDownOnEveryReadRoute(reported);
        for (String left : codes.subList(1, 3)) {
            assertEquals(200, status("/raw/" + left), left + " left readable");
            assertTrue(objectExists(left), left);
            assertTrue(takedownAudits(left).isEmpty(), left + ": not audited");
        }

        ModerationAnswer byTombstone = command(Map.of("action", "copies", "code", reported));
        assertEquals(sha256, byTombstone.sha256(), "the tombstone's hash");
        assertEquals(codes.subList(1, 3), byTombstone.copies());
        assertTrue(byTombstone.blocked());
        ModerationAnswer byHash = command(Map.of("action", "copies", "sha256", sha256));
        assertEquals(codes.subList(1, 3), byHash.copies());

        ModerationAnswer block =
                command(Map.of("action", "block", "sha256", sha256, "reason", "again", "requestedBy", OPERATOR));
        assertEquals("already-blocked", block.outcome(), block.toString());
        assertEquals(codes.subList(1, 3), block.copies());
        assertTrue(block.note().contains("take them down with `takedown`"), block.note());
        assertEquals(200, status("/raw/" + codes.get(1)), "block takes nothing down");

        ModerationAnswer kept = takedown(codes.get(1), Map.of("block", false));
        assertEquals("taken-down", kept.outcome(), kept.toString());
        assertEquals(List.of(codes.get(2)), kept.copiesLeft());
        assertEquals(200, status("/raw/" + codes.get(2)));

        ModerationAnswer again = takedown(reported, Map.of());
        assertEquals("already-taken-down", again.outcome(), again.toString());
        assertEquals(List.of(codes.get(2)), again.copies(), "the repeat takes down the copy still readable");
        assertTakenDownOnEveryReadRoute(codes.get(2));
        assertFalse(objectExists(codes.get(2)));
        assertEquals(
                List.of(), command(Map.of("action", "copies", "sha256", sha256)).copies());
        drainOutbox();
    }

    @Test
    void copiesOfAnUnknownCodeOrWithoutASubjectAreAnsweredClearly() {
        String unknown = context.getBean(ShortCodes.class).next();
        assertEquals(
                "unknown-code",
                command(Map.of("action", "copies", "code", unknown)).outcome());
        ModerationAnswer bare = command(Map.of("action", "copies"));
        assertEquals("refused", bare.outcome());
        assertTrue(bare.error().contains("copies needs a code or a sha256"), bare.error());
    }
}
