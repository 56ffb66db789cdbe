package dev.pastebin.moderation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.sun.net.httpserver.HttpServer;
import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.moderation.OutboxMessage;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PastePaths;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.LargeFileStore;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestApiKeys;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.core.support.TestQueues;
import dev.pastebin.faults.FaultProxy;
import dev.pastebin.faults.FaultProxy.Fault;
import dev.pastebin.faults.Service;
import dev.pastebin.moderation.outbox.ModerationOutboxHandler;
import io.micronaut.context.ApplicationContext;
import io.micronaut.core.type.Argument;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.serde.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The operator's takedown, block and unblock through ModerationHandler against the real PostgreSQL and LocalStack
 * (S3 and the outbox queue, each behind a fault proxy), and the outbox's consumer against LocalStack's S3 and a local
 * stand-in for CloudFront's and SNS's APIs that records the exact requests (CloudFront is not in LocalStack's
 * community edition). TakedownDuringS3OutageIT (module tools/chaos) takes a paste down while S3 is down, with the upload worker and the
 * read routes.
 */
@RealServices
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TakedownIT {

    private static final String OPERATOR = "arn:aws:iam::000000000000:user/operator";
    private static final String DISTRIBUTION = "E2TAKEDOWNTEST";
    private static final String TOPIC = "arn:aws:sns:us-east-1:000000000000:takedown-abuse";
    private static final URI LOCALSTACK =
            URI.create(Optional.ofNullable(System.getenv("AWS_ENDPOINT_URL")).orElse("http://127.0.0.1:4566"));

    private final String bucket = "takedown-it-" + UUID.randomUUID().toString().substring(0, 8);
    private final SqsClient sqs = SqsClient.create();
    private final TestQueues.Pair outbox = TestQueues.create(sqs, "takedown-outbox-it", 3, 30);
    private final List<Recorded> recorded = new CopyOnWriteArrayList<>();
    private HttpServer standIn;
    /** Between the functions' S3 client and LocalStack: forwards everything unless a test scripts a fault. */
    private FaultProxy s3Proxy;
    /** Between the moderation function's SQS client (the outbox) and LocalStack, likewise. */
    private FaultProxy sqsProxy;

    private ApplicationContext context;
    private ModerationHandler handler;
    private ModerationOutboxHandler outboxHandler;

    /** One request the stand-in received. */
    record Recorded(String method, String path, String authorization, String body) {}

    @BeforeAll
    void start() throws IOException {
        standIn = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        standIn.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            recorded.add(new Recorded(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    body));
            // the shapes of CloudFront's and SNS's answers, enough for the SDK's clients to read
            byte[] answer = exchange.getRequestURI().getPath().contains("/invalidation")
                    ? ("<Invalidation xmlns=\"http://cloudfront.amazonaws.com/doc/2020-05-31/\">"
                                    + "<Id>I2STANDIN</Id><Status>InProgress</Status></Invalidation>")
                            .getBytes(StandardCharsets.UTF_8)
                    : ("<PublishResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">"
                                    + "<PublishResult><MessageId>m</MessageId></PublishResult></PublishResponse>")
                            .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/xml");
            exchange.sendResponseHeaders(
                    exchange.getRequestURI().getPath().contains("/invalidation") ? 201 : 200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        standIn.start();
        s3Proxy = new FaultProxy(LOCALSTACK);
        sqsProxy = new FaultProxy(Service.SQS, 0, LOCALSTACK);
        String standInUrl = "http://127.0.0.1:" + standIn.getAddress().getPort();
        Map<String, Object> properties = new HashMap<>(Map.of(
                "pastebin.storage.bucket", bucket,
                "pastebin.moderation-outbox.url", outbox.queueUrl(),
                "pastebin.outbox.distribution-id", DISTRIBUTION,
                "pastebin.outbox.abuse-topic-arn", TOPIC,
                "pastebin.outbox.cloudfront-endpoint", standInUrl,
                "pastebin.outbox.sns-endpoint", standInUrl,
                "aws.services.s3.endpoint-override", s3Proxy.endpoint().toString(),
                "aws.services.sqs.endpoint-override", sqsProxy.endpoint().toString()));
        context = ApplicationContext.builder()
                .environments("test")
                .properties(properties)
                .start();
        context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
        handler = new ModerationHandler(context);
        outboxHandler = new ModerationOutboxHandler(context);
    }

    @AfterAll
    void stop() {
        standIn.stop(0);
        TestQueues.delete(sqs, outbox);
        S3Client s3 = context.getBean(S3Client.class);
        s3.listObjectsV2(l -> l.bucket(bucket))
                .contents()
                .forEach(o -> s3.deleteObject(d -> d.bucket(bucket).key(o.key())));
        s3.deleteBucket(d -> d.bucket(bucket));
        context.close();
        s3Proxy.close();
        sqsProxy.close();
    }

    /** The raw pool: the test's own statements run outside any Micronaut transaction. */
    private DataSource rawDataSource() {
        return DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
    }

    private Paste paste(String text, boolean readOnce, boolean stored) {
        // unique content: the blocklist outlives a run in the shared test database
        byte[] content = (text + " " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
        PasteRepository pastes = context.getBean(PasteRepository.class);
        String code = context.getBean(ShortCodes.class).next();
        String sha256 = ContentHash.sha256Hex(content);
        pastes.save(TestPastes.inProgress(code, null, sha256, content.length, "b".repeat(64), null, readOnce));
        if (stored) {
            ContentLocation location = context.getBean(PasteContentStore.class).put(code, content, sha256);
            assertEquals(1, pastes.markProcessed(code, location.uri()));
        }
        return pastes.findById(code).orElseThrow();
    }

    private boolean objectExists(String code) {
        PasteContentStore store = context.getBean(PasteContentStore.class);
        return store.get(store.locationOf(code)).isPresent();
    }

    private ModerationAnswer takedown(String code, Boolean block) {
        return handler.handle(new ModerationCommand("takedown", code, null, "court order 42", OPERATOR, block));
    }

    /** The outbox's messages sent since the last call, as the outbox function receives them. */
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

    private SQSBatchResponse deliver(List<Message> messages) {
        SQSEvent event = new SQSEvent();
        event.setRecords(messages.stream()
                .map(m -> {
                    SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
                    record.setMessageId(m.messageId());
                    record.setBody(m.body());
                    return record;
                })
                .toList());
        return outboxHandler.execute(event);
    }

    /** One outbox message body, delivered as message {@code id}; the ids of the batch item failures. */
    private List<String> deliverBody(String id, String body) {
        SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
        record.setMessageId(id);
        record.setBody(body);
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(record));
        return outboxHandler.execute(event).getBatchItemFailures().stream()
                .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .toList();
    }

    private Map<String, Object> auditOf(String code, String action) throws Exception {
        try (Connection connection = rawDataSource().getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT actor, reason, content_sha256, content_size, acted_at, owner FROM moderation_audit"
                                + " WHERE short_code = ? AND action = ?")) {
            select.setString(1, code);
            select.setString(2, action);
            try (ResultSet row = select.executeQuery()) {
                assertTrue(row.next(), "an audit entry " + action + " for " + code);
                Map<String, Object> entry = new HashMap<>();
                entry.put("actor", row.getString(1));
                entry.put("reason", row.getString(2));
                entry.put("sha256", row.getString(3));
                entry.put("size", row.getInt(4));
                entry.put("at", row.getTimestamp(5));
                entry.put("owner", row.getString(6));
                assertFalse(row.next(), "one " + action + " entry");
                return entry;
            }
        }
    }

    /** The document element of an XML request body the stand-in recorded. */
    private static Element xml(String body) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder()
                .parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)))
                .getDocumentElement();
    }

    private static List<String> texts(Element element, String name) {
        NodeList nodes = element.getElementsByTagNameNS("*", name);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent());
        }
        return texts;
    }

    private static String text(Element element, String name) {
        List<String> texts = texts(element, name);
        assertEquals(1, texts.size(), name);
        return texts.getFirst();
    }

    @Test
    void aStoredPasteIsTakenDownInOneStepAndItsEdgePathsInvalidated() throws Exception {
        Paste paste = paste("stored and reported", false, true);
        String code = paste.shortCode();
        assertTrue(objectExists(code));

        ModerationAnswer answer = takedown(code, null);

        assertEquals("taken-down", answer.outcome(), answer.toString());
        assertEquals(code, answer.code());
        assertTrue(answer.rowRemoved());
        assertEquals("PROCESSED", answer.stateRemoved());
        assertEquals("deleted", answer.objectDeletion());
        assertNull(answer.note(), "nothing left to do");
        assertEquals(paste.contentSha256(), answer.sha256());
        assertEquals(paste.sizeBytes(), answer.size());
        assertTrue(answer.blocked(), "blocked by default");
        assertTrue(answer.invalidation().startsWith("takedown:"), answer.invalidation());
        assertFalse(objectExists(code), "no object left");
        assertTrue(context.getBean(PasteRepository.class).findById(code).isEmpty());
        assertTrue(context.getBean(TakedownRepository.class).existsById(code), "the tombstone");
        assertTrue(context.getBean(ContentBlocklist.class).existsById(paste.contentSha256()));
        Map<String, Object> audit = auditOf(code, "takedown");
        assertEquals(OPERATOR, audit.get("actor"));
        assertEquals("court order 42", audit.get("reason"));
        assertEquals(paste.contentSha256(), audit.get("sha256"));
        assertEquals(paste.sizeBytes(), audit.get("size"));
        assertNotNull(audit.get("at"));
        auditOf(code, "block");

        List<Message> sent = drainOutbox();
        assertEquals(1, sent.size(), "one invalidate message");
        OutboxMessage message =
                context.getBean(ObjectMapper.class).readValue(sent.getFirst().body(), OutboxMessage.class);
        assertEquals("invalidate", message.kind());
        assertEquals(PastePaths.edgePaths(code), message.paths());
        assertEquals(answer.invalidation(), message.reference());

        recorded.clear();
        assertTrue(deliver(sent).getBatchItemFailures().isEmpty());
        assertEquals(1, recorded.size(), recorded.toString());
        Recorded request = recorded.getFirst();
        assertEquals("POST", request.method());
        assertEquals("/2020-05-31/distribution/" + DISTRIBUTION + "/invalidation", request.path());
        assertTrue(request.authorization().contains("/us-east-1/cloudfront/aws4_request"), request.authorization());
        Element batch = xml(request.body());
        assertEquals("InvalidationBatch", batch.getLocalName());
        assertEquals(answer.invalidation(), text(batch, "CallerReference"));
        assertEquals("5", text(batch, "Quantity"));
        assertEquals(
                List.of(
                        "/pastes/" + code + "*",
                        "/p/" + code + "*",
                        "/" + code + "*",
                        "/raw/" + code + "*",
                        "/documents/" + code + "*"),
                texts(batch, "Path"));

        ModerationAnswer again = takedown(code, null);
        assertEquals("already-taken-down", again.outcome(), again.toString());
        assertEquals(paste.contentSha256(), again.sha256());
        assertEquals("deleted", again.objectDeletion(), "the delete is retried (the key is absent: S3 confirms it)");
        assertTrue(again.note().startsWith("already taken down at "), again.note());
        assertEquals(1, drainOutbox().size(), "the invalidation is sent again");
        // CloudFront answers a caller reference it has seen with the earlier invalidation: each repeat needs its own
        ModerationAnswer third = takedown(code, null);
        assertNotEquals(again.invalidation(), third.invalidation(), "a new caller reference for every repeat");
        assertEquals(1, drainOutbox().size(), "the invalidation is sent once more");
    }

    /**
     * An owned paste's takedown names its owner in the audit entry (docs/design.md, "Ownership"): the API key's id or
     * the signed-in subject, never a credential; an anonymous paste's names none.
     */
    @Test
    void aTakedownNamesThePastesOwnerInItsAuditEntry() throws Exception {
        TestApiKeys.Key key = TestApiKeys.issue(rawDataSource(), null, null);
        Paste keyed = paste("created with a key", false, true);
        try (Connection connection = rawDataSource().getConnection();
                PreparedStatement own =
                        connection.prepareStatement("UPDATE pastes SET owner_key_id = ? WHERE short_code = ?")) {
            own.setObject(1, key.id());
            own.setString(2, keyed.shortCode());
            assertEquals(1, own.executeUpdate());
        }
        String subject = "alice-" + UUID.randomUUID();
        Paste signedIn = paste("created signed in", false, true);
        try (Connection connection = rawDataSource().getConnection();
                PreparedStatement own =
                        connection.prepareStatement("UPDATE pastes SET user_id = ? WHERE short_code = ?")) {
            own.setString(1, subject);
            own.setString(2, signedIn.shortCode());
            assertEquals(1, own.executeUpdate());
        }
        Paste anonymous = paste("created by anyone", false, true);

        for (Paste paste : List.of(keyed, signedIn, anonymous)) {
            assertEquals("taken-down", takedown(paste.shortCode(), false).outcome());
        }

        assertEquals(
                "api-key:" + key.id(), auditOf(keyed.shortCode(), "takedown").get("owner"));
        assertEquals(
                "subject:" + subject, auditOf(signedIn.shortCode(), "takedown").get("owner"));
        assertNull(auditOf(anonymous.shortCode(), "takedown").get("owner"));
        assertEquals(3, drainOutbox().size(), "each takedown's invalidation");
    }

    /**
     * A large paste's files (docs/design.md, "Large files: straight to S3") are objects of their own, staged until the
     * worker verifies them and then under files/: a takedown deletes every one of them, wherever its upload stands,
     * and so does a repeated takedown (the tombstone records no files).
     */
    @Test
    void aLargePastesFilesStagedOrStoredLeaveNoObjectBehind() {
        Paste paste = paste("a large paste", false, false);
        String code = paste.shortCode();
        LargeFileStore files = context.getBean(LargeFileStore.class);
        S3Client s3 = context.getBean(S3Client.class);
        List<String> keys = List.of(
                files.finalKey(PasteFile.idOf(code, 0)),
                files.stagingKey(PasteFile.idOf(code, 1)),
                files.finalKey(PasteFile.idOf(code, 4)));
        keys.forEach(key -> s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("bytes of " + key)));

        ModerationAnswer answer = takedown(code, null);

        assertEquals("taken-down", answer.outcome());
        assertEquals(List.of(), remaining(s3, code), "no object of the paste is left");

        // an object that arrives after the takedown (a client's upload to a URL signed before it) goes with a repeat
        s3.putObject(b -> b.bucket(bucket).key(keys.get(1)), RequestBody.fromString("late"));
        assertEquals("already-taken-down", takedown(code, null).outcome());
        assertEquals(List.of(), remaining(s3, code), "no object of the paste is left");
        assertEquals(2, drainOutbox().size(), "each takedown's invalidation");
    }

    private List<String> remaining(S3Client s3, String code) {
        return s3.listObjectsV2(l -> l.bucket(bucket)).contents().stream()
                .map(o -> o.key())
                .filter(key -> key.contains(code))
                .toList();
    }

    /**
     * S3 refuses the delete (each key refused, as S3 answers a DeleteObjects it will not do): the takedown commits
     * all the same, and the answer says the object's deletion is pending; the delete goes to the outbox with the
     * invalidation, and the outbox function deletes the object once S3 accepts.
     */
    @Test
    void aTakedownWhoseDeleteS3RefusesCommitsAndHandsTheDeleteToTheOutbox() throws Exception {
        Paste paste = paste("stored, and S3 refuses its delete", false, true);
        String code = paste.shortCode();

        s3Proxy.refuseDeletes();
        ModerationAnswer answer;
        try {
            answer = takedown(code, null);
        } finally {
            s3Proxy.recover();
        }

        assertEquals("taken-down", answer.outcome(), answer.toString());
        assertEquals("pending", answer.objectDeletion());
        assertTrue(answer.note().startsWith("the object's deletion is pending: S3 refused it ("), answer.note());
        assertTrue(objectExists(code), "not deleted yet");
        assertTrue(context.getBean(PasteRepository.class).findById(code).isEmpty(), "committed: no row");
        assertTrue(context.getBean(TakedownRepository.class).existsById(code), "committed: the tombstone");
        List<Message> sent = drainOutbox();
        ObjectMapper json = context.getBean(ObjectMapper.class);
        Map<String, OutboxMessage> byKind = new HashMap<>();
        for (Message m : sent) {
            OutboxMessage message = json.readValue(m.body(), OutboxMessage.class);
            byKind.put(message.kind(), message);
        }
        assertEquals(Set.of("invalidate", "delete-objects"), byKind.keySet(), sent.toString());
        OutboxMessage delete = byKind.get("delete-objects");
        // the content's key, and a large paste's folders (listed when the outbox deletes them)
        assertEquals(
                List.of(
                        "s3://" + bucket + "/pastes/" + code,
                        "s3://" + bucket + "/staging/" + code + "/",
                        "s3://" + bucket + "/files/" + code + "/"),
                delete.objects());
        assertEquals(answer.invalidation(), delete.reference(), "the takedown's reference");

        assertTrue(deliver(sent).getBatchItemFailures().isEmpty());
        assertFalse(objectExists(code), "deleted by the outbox function");
    }

    /**
     * S3 refuses the delete and the outbox is unreachable too: the takedown still commits; the answer says the
     * object's deletion failed and the invalidation was not sent, and that repeating the command retries them. The
     * repeat does: it deletes the object and sends the invalidation.
     */
    @Test
    void aDeleteNeitherS3NorTheOutboxTakesFailsAndRepeatingTheCommandRetriesIt() throws Exception {
        Paste paste = paste("S3 and the outbox both refuse", false, true);
        String code = paste.shortCode();

        s3Proxy.refuseDeletes();
        sqsProxy.outage(Fault.SERVICE_UNAVAILABLE_503);
        ModerationAnswer answer;
        try {
            answer = takedown(code, null);
        } finally {
            s3Proxy.recover();
            sqsProxy.recover();
        }

        assertEquals("taken-down", answer.outcome(), answer.toString());
        assertEquals("failed", answer.objectDeletion());
        assertNull(answer.invalidation(), "not sent");
        assertTrue(answer.note().contains("the edge invalidation could not be sent"), answer.note());
        assertTrue(answer.note().contains("the object's deletion failed"), answer.note());
        assertTrue(answer.note().endsWith("repeat the command to retry it"), answer.note());
        assertTrue(objectExists(code));
        assertTrue(context.getBean(TakedownRepository.class).existsById(code), "committed: the tombstone");
        assertTrue(drainOutbox().isEmpty());

        ModerationAnswer again = takedown(code, null);

        assertEquals("already-taken-down", again.outcome(), again.toString());
        assertEquals("deleted", again.objectDeletion());
        assertFalse(objectExists(code), "the repeat deleted it");
        List<Message> sent = drainOutbox();
        assertEquals(1, sent.size(), "the invalidation, sent by the repeat");
        OutboxMessage message =
                context.getBean(ObjectMapper.class).readValue(sent.getFirst().body(), OutboxMessage.class);
        assertEquals("invalidate", message.kind());
        assertEquals(again.invalidation(), message.reference());
    }

    @Test
    void aPasteStillBeingStoredAndAReadOncePasteAreTakenDownWhateverTheirState() throws Exception {
        Paste pending = paste("still being stored", false, false);
        Paste readOnce = paste("read me once", true, true);

        ModerationAnswer pendingAnswer = takedown(pending.shortCode(), false);
        ModerationAnswer readOnceAnswer = takedown(readOnce.shortCode(), null);

        assertEquals("taken-down", pendingAnswer.outcome());
        assertEquals("IN_PROGRESS", pendingAnswer.stateRemoved());
        assertFalse(pendingAnswer.blocked(), "block:false opts out");
        assertFalse(context.getBean(ContentBlocklist.class).existsById(pending.contentSha256()));
        assertEquals("taken-down", readOnceAnswer.outcome());
        assertFalse(objectExists(readOnce.shortCode()));
        assertTrue(context.getBean(TakedownRepository.class).existsById(pending.shortCode()));
        assertTrue(context.getBean(TakedownRepository.class).existsById(readOnce.shortCode()));
        drainOutbox();
    }

    @Test
    void anUnknownCodeHasNothingToTakeDownAndLeavesNoTombstone() {
        String code = context.getBean(ShortCodes.class).next();

        ModerationAnswer answer = takedown(code, null);

        assertEquals("nothing-to-take-down", answer.outcome(), answer.toString());
        assertFalse(context.getBean(TakedownRepository.class).existsById(code));
        assertTrue(drainOutbox().isEmpty());
    }

    /**
     * A {@code delete-objects} message (a takedown whose own delete S3 refused) makes the outbox function delete
     * the objects; while S3 refuses, the message is reported as a batch item failure, so the queue hands it back
     * later (and after its last receive to the dead-letter queue). A message without objects, or with something
     * that is no {@code s3://bucket/key}, will never succeed.
     */
    @Test
    void aDeleteObjectsMessageDeletesTheObjectsAndARefusedDeleteIsRetried() {
        Paste paste = paste("left behind by a takedown", false, true);
        String code = paste.shortCode();
        String body = "{\"kind\":\"delete-objects\",\"objects\":[\"s3://" + bucket + "/pastes/" + code
                + "\"],\"reference\":\"takedown:" + code + "\"}";

        s3Proxy.refuseDeletes();
        try {
            assertEquals(List.of("refused"), deliverBody("refused", body));
            assertTrue(objectExists(code), "S3 refused: the object is still there");
        } finally {
            s3Proxy.recover();
        }
        assertEquals(List.of(), deliverBody("retried", body));
        assertFalse(objectExists(code), "deleted on the retry");
        assertEquals(List.of(), deliverBody("again", body), "deleting an absent object succeeds");

        assertEquals(
                List.of("empty"),
                deliverBody("empty", "{\"kind\":\"delete-objects\",\"objects\":[],\"reference\":\"r\"}"));
        assertEquals(
                List.of("bad"),
                deliverBody("bad", "{\"kind\":\"delete-objects\",\"objects\":[\"pastes/x\"],\"reference\":\"r\"}"));
    }

    @Test
    void blockAndUnblockAreAuditedAndListed() throws Exception {
        String sha256 = ContentHash.sha256Hex(UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));

        assertEquals(
                "blocked",
                handler.handle(new ModerationCommand(
                                "block", null, sha256.toUpperCase(Locale.ROOT), "spam", OPERATOR, null))
                        .outcome());
        assertEquals(
                "already-blocked",
                handler.handle(new ModerationCommand("block", null, sha256, "spam", OPERATOR, null))
                        .outcome());
        ModerationAnswer list = handler.handle(new ModerationCommand("blocklist", null, null, null, null, null));
        assertTrue(list.entries().stream()
                .anyMatch(e -> e.sha256().equals(sha256) && e.addedBy().equals(OPERATOR)));
        assertEquals(
                "unblocked",
                handler.handle(new ModerationCommand("unblock", null, sha256, "appeal upheld", OPERATOR, null))
                        .outcome());
        assertEquals(
                "not-blocked",
                handler.handle(new ModerationCommand("unblock", null, sha256, "again", OPERATOR, null))
                        .outcome());
        try (Connection connection = rawDataSource().getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT action, reason FROM moderation_audit WHERE content_sha256 = ? ORDER BY acted_at")) {
            select.setString(1, sha256);
            try (ResultSet rows = select.executeQuery()) {
                List<String> actions = new ArrayList<>();
                while (rows.next()) {
                    actions.add(rows.getString(1) + ":" + rows.getString(2));
                }
                assertEquals(List.of("block:spam", "unblock:appeal upheld"), actions);
            }
        }
    }

    /**
     * A blocklist of tens of thousands of entries does not fit one Lambda response (6 MB): it is listed a page at a
     * time, in the order of the hashes, each page saying where the next starts ({@code nextAfter}), and following
     * the cursors yields every entry exactly once. The shared database's blocklist holds other runs' entries too, so
     * this test's entries share a random prefix and the walk starts just before it.
     */
    @Test
    void theBlocklistIsListedInPagesWhoseCursorsYieldEachEntryOnce() throws Exception {
        String prefix = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        List<String> mine = blocklistEntries(prefix, 7);
        try {
            Map<String, Object> page = blocklist(prefix + "0".repeat(48), 3);
            assertEquals(3, hashes(page).size(), "one page of 3: " + page.keySet());
            assertEquals(mine.subList(0, 3), hashes(page));
            assertEquals(mine.get(2), page.get("nextAfter"), "the next page starts after the last entry");

            List<String> walked = new ArrayList<>(hashes(page));
            while (page.get("nextAfter") != null && walked.getLast().startsWith(prefix)) {
                page = blocklist((String) page.get("nextAfter"), 3);
                assertTrue(hashes(page).size() <= 3, page.toString());
                walked.addAll(hashes(page));
            }
            assertEquals(
                    mine, walked.stream().filter(h -> h.startsWith(prefix)).toList(), "every entry once, in order");
        } finally {
            removeBlocklistEntries(prefix);
        }
    }

    /**
     * Without a limit a page holds 500 entries, the most one holds: with each entry's reason and author at their
     * longest and every character escaped, 500 still fit a Lambda response. A larger limit, or a cursor that is no
     * hash, is refused.
     */
    @Test
    void aBlocklistPageHoldsAtMost500Entries() throws Exception {
        String prefix = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        List<String> mine = blocklistEntries(prefix, 501);
        try {
            Map<String, Object> page = blocklist(prefix + "0".repeat(48), null);
            assertEquals(500, hashes(page).size(), "the default page");
            assertEquals(mine.subList(0, 500), hashes(page));
            assertEquals(mine.get(499), page.get("nextAfter"));
            Map<String, Object> last = blocklist((String) page.get("nextAfter"), 1);
            assertEquals(List.of(mine.get(500)), hashes(last));

            for (Map<String, Object> event : List.<Map<String, Object>>of(
                    Map.of("action", "blocklist", "limit", 501),
                    Map.of("action", "blocklist", "limit", 0),
                    Map.of("action", "blocklist", "after", "not-a-hash"))) {
                ModerationAnswer refused = handler.execute(event);
                assertEquals("refused", refused.outcome(), event + " -> " + refused);
            }
        } finally {
            removeBlocklistEntries(prefix);
        }
    }

    /** {@code count} entries whose hashes start with {@code prefix}, added by hand, in the database's order. */
    private List<String> blocklistEntries(String prefix, int count) throws Exception {
        try (Connection connection = rawDataSource().getConnection()) {
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO content_blocklist (sha256, reason, added_by)
                    SELECT ? || lpad(to_hex(i), 48, '0'), 'paging test', ? FROM generate_series(1, ?) AS i""")) {
                insert.setString(1, prefix);
                insert.setString(2, OPERATOR);
                insert.setInt(3, count);
                assertEquals(count, insert.executeUpdate());
            }
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT sha256 FROM content_blocklist WHERE sha256 LIKE ? ORDER BY sha256")) {
                select.setString(1, prefix + "%");
                List<String> hashes = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        hashes.add(rows.getString(1));
                    }
                }
                return hashes;
            }
        }
    }

    private void removeBlocklistEntries(String prefix) throws Exception {
        try (Connection connection = rawDataSource().getConnection();
                PreparedStatement delete =
                        connection.prepareStatement("DELETE FROM content_blocklist WHERE sha256 LIKE ?")) {
            delete.setString(1, prefix + "%");
            delete.executeUpdate();
        }
    }

    /** The answer to {@code blocklist} as infra/admin prints it: the event as it sends it, the answer as JSON. */
    private Map<String, Object> blocklist(String after, Integer limit) throws IOException {
        Map<String, Object> event = new HashMap<>(Map.of("action", "blocklist", "after", after));
        if (limit != null) {
            event.put("limit", limit);
        }
        ObjectMapper json = context.getBean(ObjectMapper.class);
        return json.readValue(
                json.writeValueAsBytes(handler.execute(event)), Argument.mapOf(String.class, Object.class));
    }

    @SuppressWarnings("unchecked")
    private static List<String> hashes(Map<String, Object> page) {
        return ((List<Map<String, Object>>) page.getOrDefault("entries", List.of()))
                .stream().map(e -> (String) e.get("sha256")).toList();
    }

    /** The event as Lambda's runtime hands it over: a map, read into the command; one that does not read is refused. */
    @Test
    void theEventIsReadIntoTheCommandAndAMalformedOneIsRefused() {
        assertEquals("listed", handler.execute(Map.of("action", "blocklist")).outcome());
        ModerationAnswer malformed = handler.execute(Map.of("action", "takedown", "block", List.of("yes")));
        assertEquals("refused", malformed.outcome(), malformed.toString());
        assertNotNull(malformed.error());
    }

    @Test
    void badOperatorInputIsAnsweredWithAClearError() {
        Map<ModerationCommand, String> bad = Map.of(
                new ModerationCommand("purge", "abc", null, "r", OPERATOR, null), "unknown action 'purge'",
                new ModerationCommand(null, null, null, null, null, null), "no action",
                new ModerationCommand("block", null, "not-a-hash", "r", OPERATOR, null), "64 hexadecimal digits",
                new ModerationCommand("takedown", "../etc", null, "r", OPERATOR, null), "",
                new ModerationCommand(
                                "takedown", context.getBean(ShortCodes.class).next(), null, " ", OPERATOR, null),
                        "reason is required",
                new ModerationCommand(
                                "takedown", context.getBean(ShortCodes.class).next(), null, "r", null, null),
                        "requestedBy is required");
        bad.forEach((command, expected) -> {
            ModerationAnswer answer = handler.handle(command);
            assertEquals("refused", answer.outcome(), command + " -> " + answer);
            assertTrue(answer.error().contains(expected), answer.error());
            assertNull(answer.code());
        });
    }

    @Test
    void aNotificationIsPublishedToTheAbuseTopicAndAMalformedMessageFails() {
        recorded.clear();
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (String body : List.of(
                "{\"kind\":\"notify\",\"subject\":\"New report\",\"message\":\"Paste x reported: spam\",\"reference\":\"report:x\"}",
                "{\"kind\":\"shred\"}")) {
            SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
            record.setMessageId("m" + records.size());
            record.setBody(body);
            records.add(record);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(records);

        SQSBatchResponse response = outboxHandler.execute(event);

        assertEquals(
                List.of("m1"),
                response.getBatchItemFailures().stream()
                        .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                        .toList());
        assertEquals(1, recorded.size());
        Map<String, String> form = Arrays.stream(recorded.getFirst().body().split("&"))
                .map(pair -> pair.split("=", 2))
                .collect(Collectors.toMap(p -> p[0], p -> URLDecoder.decode(p[1], StandardCharsets.UTF_8)));
        assertEquals(
                Map.of(
                        "Action",
                        "Publish",
                        "Version",
                        "2010-03-31",
                        "TopicArn",
                        TOPIC,
                        "Subject",
                        "New report",
                        "Message",
                        "Paste x reported: spam"),
                form);
        assertTrue(recorded.getFirst().authorization().contains("/us-east-1/sns/aws4_request"));
    }
}
