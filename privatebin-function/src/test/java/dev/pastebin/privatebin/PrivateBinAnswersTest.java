package dev.pastebin.privatebin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The protocol's answers, as PrivateBin's clients parse them. */
class PrivateBinAnswersTest {

    private static String text(MutableHttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    @Test
    void aReadAnswersAdataAsStoredAndTheFieldsTheClientsRead() {
        String adata = "[ [\"aXY=\", \"c2FsdA==\", 1e5 ], \"plain\\u0074ext\", 0, 1 ]";
        MutableHttpResponse<byte[]> answer = PrivateBinAnswers.paste(
                "/pb/", new EncryptedPaste("aB3xYz9QkLm", adata.getBytes(StandardCharsets.UTF_8), "Y3Q=", 300L));

        assertEquals(
                "{\"status\":0,\"id\":\"aB3xYz9QkLm\",\"url\":\"/pb/?aB3xYz9QkLm\",\"adata\":" + adata
                        + ",\"v\":2,\"ct\":\"Y3Q=\",\"meta\":{\"time_to_live\":300},\"comments\":[],\"comment_count\":0,"
                        + "\"comment_offset\":0,\"@context\":\"?jsonld=paste\"}",
                text(answer));
        assertArrayEquals(
                adata.getBytes(StandardCharsets.UTF_8),
                JsonMembers.of(answer.body()).orElseThrow().structure("adata").orElseThrow());
        assertEquals("no-store", answer.getHeaders().get("Cache-Control"));
        assertEquals(
                "{\"status\":0,\"id\":\"aB3xYz9QkLm\",\"url\":\"/pb?aB3xYz9QkLm\",\"adata\":[],\"v\":2,\"ct\":\"Y3Q=\","
                        + "\"meta\":{},\"comments\":[],\"comment_count\":0,\"comment_offset\":0,"
                        + "\"@context\":\"?jsonld=paste\"}",
                text(PrivateBinAnswers.paste(
                        "/pb", new EncryptedPaste("aB3xYz9QkLm", "[]".getBytes(StandardCharsets.UTF_8), "Y3Q=", null))),
                "no expiry: no time_to_live; the URL relative to the address the client used");
    }

    @Test
    void createDeleteAndRefusalAreInTheProtocolsShape() {
        assertEquals(
                "{\"status\":0,\"id\":\"aB3xYz9QkLm\",\"url\":\"/pb/?aB3xYz9QkLm\",\"deletetoken\":\"t0k-en_\"}",
                text(PrivateBinAnswers.created(
                        "/pb/", new CreateEncryptedPasteService.Created("aB3xYz9QkLm", "t0k-en_"))));
        assertEquals(
                "{\"status\":0,\"id\":\"aB3xYz9QkLm\",\"url\":\"/pb/?aB3xYz9QkLm\"}",
                text(PrivateBinAnswers.deleted("/pb/", "aB3xYz9QkLm")));
        MutableHttpResponse<byte[]> refused = PrivateBinAnswers.error(HttpStatus.OK, "Invalid \"data\".");
        assertEquals("{\"status\":1,\"message\":\"Invalid \\\"data\\\".\"}", text(refused));
        assertEquals(200, refused.code());
        assertEquals("application/json", refused.getContentType().orElseThrow().toString());
    }

    @Test
    void theJsonLdContextNamesVersionTwoAndItsTypesUnderTheBase() {
        String context = text(PrivateBinAnswers.jsonLd("/pb/", "paste"));

        assertTrue(context.contains("\"v\": {\"@type\": \"so:Integer\", \"@value\": 2}"), context);
        assertTrue(context.contains("\"/pb/?jsonld=types#\""), context);
        assertEquals("{}", text(PrivateBinAnswers.jsonLd("/pb/", "types")));
    }
}
