package dev.pastebin.remove;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestApiKeys;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DELETE /me/pastes/{shortCode} (docs/using.md, "Your own pastes"): the owner deletes a paste with the credential it
 * was created with instead of its deletion token, against the real database and S3, on a private instance
 * (CreateAccess=api-key) whose creates record their key. Whoever else asks, for whatever code, gets the token
 * delete's 404, and nothing is removed.
 */
@RealServices
class DeleteOwnedPasteIT {

    private static RemoveWorld world;
    private static DataSource database;

    @BeforeAll
    static void start() {
        world = new RemoveWorld("owned-delete-it", Map.of("pastebin.create.access", "api-key"));
        database = DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class));
    }

    @AfterAll
    static void stop() {
        if (world != null) {
            world.close();
        }
    }

    private static String createdWith(TestApiKeys.Key key, String content) throws Exception {
        HttpApi.Response created = world.api.send(world.api
                .fixture("create-paste-json")
                .jwtSubject(null)
                .header("Authorization", key.bearer())
                .textBody("{\"content\":\"" + content + "\"}"));
        assertEquals(201, created.status(), created.text());
        String code = (String) world.json(created).get("shortCode");
        world.store(code);
        return code;
    }

    private static HttpApi.Request deleteOwned(String code) {
        return world.api
                .fixture("read-paste")
                .jwtSubject(null)
                .path("/me/pastes/" + code)
                .method("DELETE");
    }

    @Test
    void theOwnersKeyDeletesThePasteAndItsObjectWithoutTheDeletionToken() throws Exception {
        TestApiKeys.Key owner = TestApiKeys.issue(database, null, null);
        String code = createdWith(owner, "mine to delete");
        assertTrue(world.objectExists(code));

        HttpApi.Response deleted = world.api.send(deleteOwned(code).header("Authorization", owner.bearer()));

        assertEquals(204, deleted.status(), deleted.text());
        assertTrue(world.row(code).isEmpty(), "the row is gone");
        assertFalse(world.objectExists(code), "the object is gone");
        HttpApi.Response again = world.api.send(deleteOwned(code).header("Authorization", owner.bearer()));
        assertEquals(404, again.status(), again.text());
    }

    @Test
    void anotherKeyAnAnonymousPasteAndNoKeyRemoveNothing() throws Exception {
        TestApiKeys.Key owner = TestApiKeys.issue(database, null, null);
        TestApiKeys.Key other = TestApiKeys.issue(database, null, null);
        String code = createdWith(owner, "not yours");

        HttpApi.Response byOther = world.api.send(deleteOwned(code).header("Authorization", other.bearer()));
        assertEquals(404, byOther.status(), byOther.text());
        assertEquals("PASTE_NOT_FOUND", world.json(byOther).get("code"));

        HttpApi.Response anonymous = world.api.send(deleteOwned(code));
        assertEquals(401, anonymous.status(), anonymous.text());
        assertEquals("API_KEY_REQUIRED", world.json(anonymous).get("code"));
        assertEquals("Bearer realm=\"pastebin\"", anonymous.header("WWW-Authenticate"));

        TestApiKeys.revoke(database, owner.id());
        HttpApi.Response revoked = world.api.send(deleteOwned(code).header("Authorization", owner.bearer()));
        assertEquals(401, revoked.status(), revoked.text());
        assertEquals("API_KEY_INVALID", world.json(revoked).get("code"));

        assertTrue(world.row(code).isPresent(), "the paste is untouched");
        assertTrue(world.objectExists(code));

        HttpApi.Response malformed = world.api.send(deleteOwned("not-a-code").header("Authorization", other.bearer()));
        assertEquals(400, malformed.status(), malformed.text());
    }

    /** A signed-in owner (CreateAccess=oidc): the subject API Gateway verified, as the create recorded it. */
    @Test
    void aVerifiedSubjectDeletesThePastesItsSubjectCreated() throws Exception {
        // an anonymous create carries the fixture's verified subject as user_id, as a sign-in instance's create does
        try (RemoveWorld signIn = new RemoveWorld("owned-delete-oidc-it", Map.of("pastebin.create.access", "oidc"))) {
            HttpApi.Response created = signIn.api.send(signIn.api
                    .fixture("create-paste-json")
                    .jwtSubject("alice-" + System.nanoTime())
                    .textBody("{\"content\":\"signed in\"}"));
            assertEquals(201, created.status(), created.text());
            String code = (String) signIn.json(created).get("shortCode");
            String subject = signIn.row(code).orElseThrow().userId();
            signIn.store(code);

            HttpApi.Request delete =
                    signIn.api.fixture("read-paste").path("/me/pastes/" + code).method("DELETE");
            HttpApi.Response bySomeoneElse = signIn.api.send(delete.jwtSubject("mallory"));
            assertEquals(404, bySomeoneElse.status(), bySomeoneElse.text());
            HttpApi.Response byOwner = signIn.api.send(signIn.api
                    .fixture("read-paste")
                    .path("/me/pastes/" + code)
                    .method("DELETE")
                    .jwtSubject(subject));
            assertEquals(204, byOwner.status(), byOwner.text());
            assertTrue(signIn.row(code).isEmpty());
            assertFalse(signIn.objectExists(code));
        }
    }
}
