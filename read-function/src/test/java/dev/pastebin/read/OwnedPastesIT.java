package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestApiKeys;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GET /me/pastes (docs/using.md, "Your own pastes") against the real database: the caller's pastes and no one
 * else's, newest first, in keyset pages that follow each other exactly, each in the state readers find it in.
 */
@RealServices
class OwnedPastesIT {

    @RegisterExtension
    static final ReadWorld world = new ReadWorld("owned-it");

    private static DataSource database() {
        return DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class));
    }

    /** A paste owned by {@code key} (as an api-key create records it) or by {@code subject} (an oidc create). */
    private static String paste(TestApiKeys.Key key, String subject, Instant expiresAt) throws Exception {
        String code = world.api.context().getBean(ShortCodes.class).next();
        world.api
                .context()
                .getBean(PasteRepository.class)
                .save(TestPastes.inProgress(code, subject, "a".repeat(64), 7, null, expiresAt, false));
        if (key != null) {
            try (Connection c = database().getConnection();
                    PreparedStatement own =
                            c.prepareStatement("UPDATE pastes SET owner_key_id = ? WHERE short_code = ?")) {
                own.setObject(1, key.id());
                own.setString(2, code);
                own.executeUpdate();
            }
        }
        return code;
    }

    private static HttpApi.Request list(String query) {
        HttpApi.Request request =
                world.api.fixture("read-paste").jwtSubject(null).path("/me/pastes");
        if (query != null) {
            String[] pair = query.split("=", 2);
            request.query(pair[0], pair[1]);
        }
        return request;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> pastes(Map<String, Object> page) {
        return (List<Map<String, Object>>) page.get("pastes");
    }

    private static List<Object> codes(Map<String, Object> page) {
        return pastes(page).stream().map(p -> p.get("shortCode")).toList();
    }

    @Test
    void aKeySeesItsOwnPastesNewestFirstInPagesThatFollowEachOther() throws Exception {
        TestApiKeys.Key mine = TestApiKeys.issue(database(), null, null);
        TestApiKeys.Key theirs = TestApiKeys.issue(database(), null, null);
        String first = paste(mine, null, null);
        paste(theirs, null, null);
        paste(null, null, null);
        String second = paste(mine, null, null);
        String third = paste(mine, null, Instant.now().minusSeconds(60));
        world.api.context().getBean(PasteRepository.class).markProcessed(second, "s3://bucket/pastes/" + second);

        HttpApi.Response page1 = world.api.send(list("limit=2").header("Authorization", mine.bearer()));
        assertEquals(200, page1.status(), page1.text());
        assertEquals("no-store", page1.header("Cache-Control"));
        Map<String, Object> one = world.json(page1);
        assertEquals(List.of(third, second), codes(one));
        assertEquals("EXPIRED", pastes(one).get(0).get("state"));
        assertNotNull(pastes(one).get(0).get("expiresAt"));
        assertEquals("READY", pastes(one).get(1).get("state"));
        assertNull(pastes(one).get(1).get("expiresAt"));
        assertEquals(7, pastes(one).get(1).get("sizeBytes"));
        String next = (String) one.get("next");
        assertNotNull(next);

        HttpApi.Response page2 =
                world.api.send(list("limit=2").query("after", next).header("Authorization", mine.bearer()));
        assertEquals(200, page2.status(), page2.text());
        Map<String, Object> two = world.json(page2);
        assertEquals(List.of(first), codes(two));
        assertEquals("IN_PROGRESS", pastes(two).get(0).get("state"));
        assertNull(two.get("next"), "the last page");
        assertEquals(true, two.containsKey("next"), "next is always present");
    }

    @Test
    void aVerifiedSubjectSeesThePastesItsSubjectCreated() throws Exception {
        String subject = "alice-" + UUID.randomUUID();
        String code = paste(null, subject, null);
        paste(null, "bob-" + UUID.randomUUID(), null);

        HttpApi.Response page = world.api.send(list(null).jwtSubject(subject));

        assertEquals(200, page.status(), page.text());
        assertEquals(List.of(code), codes(world.json(page)));
    }

    @Test
    void withoutAValidKeyOrWithAPageItDoesNotTakeItIsRefused() throws Exception {
        HttpApi.Response anonymous = world.api.send(list(null));
        assertEquals(401, anonymous.status(), anonymous.text());
        assertEquals("API_KEY_REQUIRED", world.json(anonymous).get("code"));
        assertEquals("Bearer realm=\"pastebin\"", anonymous.header("WWW-Authenticate"));

        HttpApi.Response unknown = world.api.send(list(null).header("Authorization", "Bearer pb_unknown"));
        assertEquals(401, unknown.status(), unknown.text());
        assertEquals("API_KEY_INVALID", world.json(unknown).get("code"));

        TestApiKeys.Key revoked = TestApiKeys.issue(database(), null, null);
        TestApiKeys.revoke(database(), revoked.id());
        HttpApi.Response afterRevocation = world.api.send(list(null).header("Authorization", revoked.bearer()));
        assertEquals(401, afterRevocation.status(), afterRevocation.text());

        TestApiKeys.Key key = TestApiKeys.issue(database(), null, null);
        for (String limit : List.of("0", "201", "ten", "-1")) {
            HttpApi.Response bad = world.api.send(list("limit=" + limit).header("Authorization", key.bearer()));
            assertEquals(400, bad.status(), limit);
            assertEquals("INVALID_LIMIT", world.json(bad).get("code"), limit);
        }
        HttpApi.Response badCursor = world.api.send(list("after=not-a-cursor").header("Authorization", key.bearer()));
        assertEquals(400, badCursor.status(), badCursor.text());
        assertEquals("INVALID_CURSOR", world.json(badCursor).get("code"));
    }
}
