package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.support.RealServices;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Create options (expiry, read-once) and the deletion token, through the real handler and database. */
@RealServices
class CreateOptionsIT {

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("create-options-it");

    @Test
    void jsonOptionsAreStoredAndAnswered() throws Exception {
        Instant before = Instant.now();
        HttpApi.Response response = world.api.send(world.api
                .fixture("create-paste-json")
                .textBody("{\"content\":\"a secret\",\"expiresIn\":3600,\"readOnce\":true}"));

        assertEquals(201, response.status(), response.text());
        Map<String, Object> body = world.json(response);
        String code = (String) body.get("shortCode");
        Instant expiresAt = Instant.parse((String) body.get("expiresAt"));
        assertTrue(
                !expiresAt.isBefore(before.plusSeconds(3600))
                        && !expiresAt.isAfter(Instant.now().plusSeconds(3600)),
                expiresAt.toString());
        assertEquals(true, body.get("readOnce"));
        assertEquals("no-store", response.header("Cache-Control"), "the deletion token is for this client only");

        Paste row = world.row(code);
        assertEquals(expiresAt, row.expiresAt());
        assertTrue(row.readOnce());
        String token = (String) body.get("deleteToken");
        assertEquals(DeleteTokens.hashOf(token), row.deleteTokenSha256(), "only the token's hash is stored");
        assertEquals(1, world.drainQueue().size());
        removeSoonExpired(code);
    }

    @Test
    void queryOptionsApplyToATextBody() throws Exception {
        HttpApi.Response response = world.api.send(
                world.api.fixture("create-paste-text").query("expiresIn", "60").query("readOnce", "false"));

        assertEquals(201, response.status(), response.text());
        Map<String, Object> body = world.json(response);
        Paste row = world.row((String) body.get("shortCode"));
        assertEquals(false, body.get("readOnce"));
        assertFalse(row.readOnce());
        Duration lifetime = Duration.between(row.createdAt(), row.expiresAt());
        assertTrue(lifetime.minusSeconds(60).abs().compareTo(Duration.ofSeconds(2)) < 0, lifetime.toString());
        removeSoonExpired(row.shortCode());
    }

    @Test
    void withoutOptionsThePasteNeverExpiresAndExpiresAtIsNull() throws Exception {
        HttpApi.Response response = world.api.send(world.api.fixture("create-paste-text"));

        assertEquals(201, response.status(), response.text());
        Map<String, Object> body = world.json(response);
        assertTrue(body.containsKey("expiresAt"), "expiresAt is always in the body");
        assertNull(body.get("expiresAt"));
        assertEquals(false, body.get("readOnce"));
        String token = (String) body.get("deleteToken");
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), "256 bits, base64url: " + token);
        Paste row = world.row((String) body.get("shortCode"));
        assertNull(row.expiresAt());
        assertNotNull(row.deleteTokenSha256());
    }

    @Test
    void everyPasteGetsItsOwnToken() throws Exception {
        String first = (String) world.json(world.api.send(world.api.fixture("create-paste-text")))
                .get("deleteToken");
        String second = (String) world.json(world.api.send(world.api.fixture("create-paste-text")))
                .get("deleteToken");
        assertFalse(first.equals(second));
    }

    @ParameterizedTest
    @ValueSource(strings = {"59", "0", "-60", "31536001", "99999999999", "1h", "3600.0", "", " 60", "1e3"})
    void aBadQueryExpiryIsRefused(String expiresIn) throws Exception {
        assertRefused(world.api.fixture("create-paste-text").query("expiresIn", expiresIn), "INVALID_EXPIRY");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "59",
                "31536001",
                "3600.5",
                "3600.0",
                "3.6e3",
                "\"3600\"",
                "true",
                "[60]",
                "{}",
                "123456789012345678901234567890"
            })
    void aBadJsonExpiryIsRefused(String expiresIn) throws Exception {
        assertRefused(
                world.api.fixture("create-paste-json").textBody("{\"content\":\"x\",\"expiresIn\":" + expiresIn + "}"),
                "INVALID_EXPIRY");
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "1", "TRUE", "", "on"})
    void aBadQueryReadOnceIsRefused(String readOnce) throws Exception {
        assertRefused(world.api.fixture("create-paste-text").query("readOnce", readOnce), "INVALID_READ_ONCE");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "0", "\"true\"", "[]", "{}"})
    void aBadJsonReadOnceIsRefused(String readOnce) throws Exception {
        assertRefused(
                world.api.fixture("create-paste-json").textBody("{\"content\":\"x\",\"readOnce\":" + readOnce + "}"),
                "INVALID_READ_ONCE");
    }

    @Test
    void jsonNullOptionsMeanTheDefaults() throws Exception {
        HttpApi.Response response = world.api.send(world.api
                .fixture("create-paste-json")
                .textBody("{\"content\":\"x\",\"expiresIn\":null,\"readOnce\":null}"));
        assertEquals(201, response.status(), response.text());
        assertNull(world.json(response).get("expiresAt"));
        assertEquals(false, world.json(response).get("readOnce"));
    }

    @Test
    void theBoundsThemselvesAreAccepted() throws Exception {
        for (String expiresIn : new String[] {"60", "31536000"}) {
            HttpApi.Response response =
                    world.api.send(world.api.fixture("create-paste-text").query("expiresIn", expiresIn));
            assertEquals(201, response.status(), expiresIn + ": " + response.text());
            removeSoonExpired((String) world.json(response).get("shortCode"));
        }
    }

    /** The sweeper's tests expect no expiring paste but their own in the shared database. */
    private static void removeSoonExpired(String shortCode) {
        world.api.context().getBean(PasteRepository.class).remove(shortCode);
    }

    private void assertRefused(HttpApi.Request request, String code) throws Exception {
        String marker = UUID.randomUUID().toString();
        HttpApi.Response response = world.api.send(request.requestId(marker));

        assertEquals(400, response.status(), response.text());
        Map<String, Object> error = world.json(response);
        assertEquals(code, error.get("code"));
        assertEquals(marker, error.get("requestId"));
        assertTrue(world.drainQueue().isEmpty(), "no job for a refused request");
    }
}
