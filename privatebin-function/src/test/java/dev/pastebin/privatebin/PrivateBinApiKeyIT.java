package dev.pastebin.privatebin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.PrivateBinClientCrypto;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestApiKeys;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PrivateBin's API on a private instance (CreateAccess=api-key): a create needs the key, as any create, and is refused
 * in the protocol's shape with the status that says why (401 with a Bearer challenge, as a takedown's 451); reads
 * and the delete with the deletion token stay anonymous.
 */
@RealServices
class PrivateBinApiKeyIT {

    private static PrivateBinWorld world;

    @BeforeAll
    static void start() {
        world = new PrivateBinWorld("privatebin-api-key-it", Map.of("pastebin.create.access", "api-key"));
    }

    @AfterAll
    static void stop() {
        if (world != null) {
            world.close();
        }
    }

    private static DataSource database() {
        return DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class));
    }

    private static HttpApi.Response post(String body, String authorization) {
        return world.api.send(world.api
                .fixture("privatebin")
                .method("POST")
                .header("authorization", authorization)
                .binaryBody(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aCreateWithoutAValidKeyIs401InTheProtocolsShape() throws Exception {
        String body = PrivateBinClientCrypto.seal("no key", "1day", false).body();

        HttpApi.Response anonymous = world.post(body, null);
        assertEquals(401, anonymous.status(), anonymous.text());
        assertEquals("Bearer realm=\"pastebin\"", anonymous.header("WWW-Authenticate"));
        Map<String, Object> answer = world.json(anonymous);
        assertEquals(1, answer.get("status"));
        assertTrue(((String) answer.get("message")).contains("API key"), answer.toString());

        HttpApi.Response unknown = post(body, "Bearer pb_" + "B".repeat(43));
        assertEquals(401, unknown.status());
        assertEquals("Bearer realm=\"pastebin\", error=\"invalid_token\"", unknown.header("WWW-Authenticate"));
        assertEquals(1, world.json(unknown).get("status"));
    }

    @Test
    void aKeyCreatesAndTheReadAndTheDeleteWithTheTokenStayAnonymous() throws Exception {
        TestApiKeys.Key key = TestApiKeys.issue(database(), 1, null);

        HttpApi.Response created =
                post(PrivateBinClientCrypto.seal("with key", "1day", false).body(), key.bearer());
        assertEquals(200, created.status(), created.text());
        Map<String, Object> answer = world.json(created);
        assertEquals(0, answer.get("status"), created.text());
        String id = (String) answer.get("id");
        assertEquals(key.id(), TestApiKeys.ownerOf(database(), id));
        world.store(id);

        assertEquals(0, world.json(world.get(id)).get("status"), "read without a key");

        HttpApi.Response over =
                post(PrivateBinClientCrypto.seal("second", "1day", false).body(), key.bearer());
        assertEquals(429, over.status(), over.text());
        assertEquals(1, world.json(over).get("status"));
        assertTrue(Long.parseLong(over.header("Retry-After")) >= 1);

        Map<String, Object> deleted = world.json(
                world.post("{\"pasteid\":\"" + id + "\",\"deletetoken\":\"" + answer.get("deletetoken") + "\"}", null));
        assertEquals(0, deleted.get("status"), "deleted without a key: " + deleted);
        assertTrue(world.row(id).isEmpty());
    }
}
