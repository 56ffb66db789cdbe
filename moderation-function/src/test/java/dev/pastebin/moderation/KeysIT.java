package dev.pastebin.moderation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.access.ApiKeyTokens;
import dev.pastebin.core.access.UtcDay;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.moderation.ModerationAnswer.KeyEntry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.serde.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The operator's API keys through ModerationHandler against the real PostgreSQL: create shows the key once and stores
 * only its SHA-256, list shows each key's limits, the day's usage and its paste count but never a key or a hash,
 * revoke ends a key once.
 */
@RealServices
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeysIT {

    private static final String OPERATOR = "arn:aws:iam::000000000000:user/operator";

    private ApplicationContext context;
    private ModerationHandler handler;
    private ObjectMapper json;

    @BeforeAll
    void start() {
        // the takedown's S3 bucket and outbox are never called by a keys command
        context = ApplicationContext.builder()
                .environments("test")
                .properties(Map.of(
                        "pastebin.storage.bucket", "keys-it-unused",
                        "pastebin.moderation-outbox.url", "http://127.0.0.1:1/000000000000/keys-it-unused"))
                .start();
        handler = new ModerationHandler(context);
        json = context.getBean(ObjectMapper.class);
    }

    @AfterAll
    void stop() {
        context.close();
    }

    @Test
    void createShowsTheKeyOnceAndStoresOnlyItsHash() throws Exception {
        String name = "ci " + UUID.randomUUID();
        ModerationAnswer answer = handler.execute(Map.of(
                "action", "create-key", "name", name, "dailyPastes", 10, "dailyBytes", 4096, "requestedBy", OPERATOR));

        assertEquals("key-created", answer.outcome(), String.valueOf(answer));
        KeyEntry created = answer.apiKey();
        assertNotNull(created);
        assertTrue(ApiKeyTokens.isWellFormed(created.key()), created.key());
        assertEquals(name, created.name());
        assertEquals(10L, created.dailyPastes());
        assertEquals(4096L, created.dailyBytes());
        assertNull(created.revokedAt());
        try (Connection c = rawDataSource().getConnection();
                PreparedStatement select =
                        c.prepareStatement("SELECT name, key_sha256 FROM api_keys WHERE id = ?::uuid")) {
            select.setString(1, created.id());
            try (ResultSet row = select.executeQuery()) {
                assertTrue(row.next());
                assertEquals(ApiKeyTokens.hashOf(created.key()), row.getString("key_sha256"));
            }
        }

        KeyEntry listed = listed(created.id());
        String listing = new String(
                json.writeValueAsBytes(
                        handler.handle(new ModerationCommand("list-keys", null, null, null, null, null))),
                StandardCharsets.UTF_8);
        assertFalse(listing.contains(created.key()), "list never shows the key");
        assertFalse(listing.contains(ApiKeyTokens.hashOf(created.key())), "nor its hash");
        assertNull(listed.key());
        assertEquals(name, listed.name());
        assertEquals(10L, listed.dailyPastes());
        assertEquals(0L, listed.pastesToday());
        assertEquals(0L, listed.pastes());
    }

    @Test
    void aKeyWithoutLimitsIsUnlimitedAndListCountsItsUsageAndPastes() throws Exception {
        KeyEntry created = create("unlimited " + UUID.randomUUID());
        assertNull(created.dailyPastes());
        assertNull(created.dailyBytes());
        try (Connection c = rawDataSource().getConnection()) {
            try (PreparedStatement usage = c.prepareStatement(
                    "INSERT INTO api_key_usage (key_id, day, pastes, bytes) VALUES (?::uuid, ?, 2, 300)")) {
                usage.setString(1, created.id());
                usage.setObject(2, UtcDay.of(Instant.now()));
                usage.executeUpdate();
            }
            PasteRepository pastes = context.getBean(PasteRepository.class);
            for (int i = 0; i < 3; i++) {
                String code = context.getBean(ShortCodes.class).next();
                pastes.save(TestPastes.inProgress(code, null, "a".repeat(64), 100, "b".repeat(64), null, false));
                try (PreparedStatement owner =
                        c.prepareStatement("UPDATE pastes SET owner_key_id = ?::uuid WHERE short_code = ?")) {
                    owner.setString(1, created.id());
                    owner.setString(2, code);
                    owner.executeUpdate();
                }
            }
        }

        KeyEntry listed = listed(created.id());

        assertEquals(2L, listed.pastesToday());
        assertEquals(300L, listed.bytesToday());
        assertEquals(3L, listed.pastes());
        assertNull(listed.dailyPastes(), "unlimited");
    }

    @Test
    void revokeEndsAKeyOnceAndRefusesAnUnknownId() {
        KeyEntry created = create("revoked " + UUID.randomUUID());

        ModerationAnswer revoked = revoke(created.id());
        assertEquals("revoked", revoked.outcome(), String.valueOf(revoked));
        assertNotNull(revoked.apiKey().revokedAt());
        assertNotNull(listed(created.id()).revokedAt());

        ModerationAnswer again = revoke(created.id());
        assertEquals("already-revoked", again.outcome());
        assertEquals(revoked.apiKey().revokedAt(), again.apiKey().revokedAt(), "the first revocation's time stays");

        ModerationAnswer unknown = revoke(UUID.randomUUID().toString());
        assertEquals("refused", unknown.outcome());
        assertTrue(unknown.error().contains("no API key has the id"), unknown.error());
        assertEquals("refused", revoke("not-a-uuid").outcome());
    }

    @Test
    void aKeyNeedsANameAndLimitsThatAreWholeNumbers() {
        assertEquals(
                "refused",
                handler.handle(ModerationCommand.keys("create-key", " ", null, null, null, OPERATOR))
                        .outcome());
        ModerationAnswer negative =
                handler.handle(ModerationCommand.keys("create-key", "n", null, -1L, null, OPERATOR));
        assertEquals("refused", negative.outcome());
        assertTrue(negative.error().contains("dailyPastes"), negative.error());
    }

    private KeyEntry create(String name) {
        ModerationAnswer answer =
                handler.handle(ModerationCommand.keys("create-key", name, null, null, null, OPERATOR));
        assertEquals("key-created", answer.outcome(), String.valueOf(answer));
        return answer.apiKey();
    }

    private ModerationAnswer revoke(String id) {
        return handler.handle(ModerationCommand.keys("revoke-key", null, id, null, null, OPERATOR));
    }

    private KeyEntry listed(String id) {
        ModerationAnswer answer = handler.handle(ModerationCommand.keys("list-keys", null, null, null, null, null));
        assertEquals("keys", answer.outcome());
        return answer.apiKeys().stream()
                .filter(k -> k.id().equals(id))
                .findFirst()
                .orElseThrow(() -> new AssertionError(id + " not listed"));
    }

    /** The raw pool: the test's own statements run outside any Micronaut transaction. */
    private DataSource rawDataSource() {
        return DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
    }
}
