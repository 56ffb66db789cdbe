package dev.pastebin.privatebin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.PrivateBinClientCrypto;
import dev.pastebin.core.support.RealServices;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PrivateBin's clients read every answer of {@code /pb/} in the protocol's shape, an unexpected failure's too: a
 * database without the schema (PostgreSQL's own {@code postgres} database, migrations off) fails every statement
 * with an error no handler expects, and the answer is still status 1 with a message, never the API's JSON error.
 */
@RealServices
class PrivateBinUnexpectedErrorIT {

    private static PrivateBinWorld world;

    @BeforeAll
    static void start() {
        String url =
                System.getenv().getOrDefault("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin");
        world = new PrivateBinWorld(
                "pb-unexpected",
                Map.of(
                        "datasources.default.url",
                        url.replaceFirst("/[^/?]+(\\?|$)", "/postgres$1"),
                        "flyway.datasources.default.enabled",
                        false));
    }

    @AfterAll
    static void stop() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void anUnexpectedFailureOfACreateIsAnsweredInPrivateBinsShape() throws Exception {
        HttpApi.Response posted = world.post(
                PrivateBinClientCrypto.seal("no schema", "1day", false).body(), "application/json");

        assertEquals(500, posted.status(), posted.text());
        Map<String, Object> answer = world.json(posted);
        assertEquals(1, answer.get("status"), posted.text());
        assertEquals("The server could not do this. Try again later.", answer.get("message"));
    }

    @Test
    void anUnexpectedFailureOfAReadIsAnsweredInPrivateBinsShape() throws Exception {
        // a paste id as this instance makes them, so that the read reaches the database
        HttpApi.Response read = world.get("aB3xYz9Q12k");

        assertEquals(500, read.status(), read.text());
        assertEquals(1, world.json(read).get("status"), read.text());
    }
}
