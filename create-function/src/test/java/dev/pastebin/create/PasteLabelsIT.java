package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A paste's labels (language, file name) as each form of create gives them, stored on the row (migration V7, in
 * a database of this JVM's own), refused with their own error codes, and part of what an Idempotency-Key holds.
 */
@RealServices
@OwnDatabase("labels")
class PasteLabelsIT {

    private static final String BOUNDARY = "------------------------5f1c0a2e9b7d4c31";

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("paste-labels-it");

    private static HttpApi.Request json(String body) {
        return world.api.fixture("create-paste-json").textBody(body);
    }

    private static HttpApi.Request multipart(String part, String fileName) {
        byte[] body = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + part + "\"; filename=\""
                        + fileName + "\"\r\nContent-Type: text/plain\r\n\r\nprint('hi')\n\r\n--" + BOUNDARY + "--\r\n")
                .getBytes(StandardCharsets.UTF_8);
        return world.api
                .fixture("create-paste-text")
                .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                .header("Accept", "application/json")
                .binaryBody(body);
    }

    private static Paste created(HttpApi.Response response) throws Exception {
        assertEquals(201, response.status(), response.text());
        return world.row((String) world.json(response).get("shortCode"));
    }

    @Test
    void jsonLabelsAreStored() throws Exception {
        Paste row = created(world.api.send(
                json("{\"content\":\"class Main {}\",\"language\":\"java\",\"fileName\":\"Main.java\"}")));

        assertEquals("java", row.language());
        assertEquals("Main.java", row.fileName());
    }

    @Test
    void queryLabelsApplyToATextBody() throws Exception {
        Paste row = created(world.api.send(world.api
                .fixture("create-paste-text")
                .query("language", "plaintext")
                .query("fileName", "notes – März.txt")));

        assertEquals("plaintext", row.language());
        assertEquals("notes – März.txt", row.fileName());
    }

    @Test
    void withoutLabelsBothAreNull() throws Exception {
        Paste row = created(world.api.send(json("{\"content\":\"x\",\"language\":null}")));

        assertNull(row.language());
        assertNull(row.fileName());
    }

    @Test
    void anUploadedFileIsLabelledByItsNameAndExtension() throws Exception {
        Paste python = created(world.api.send(multipart("file", "scripts/hello.PY")));
        assertEquals("hello.PY", python.fileName(), "without the directory a client put in front");
        assertEquals("python", python.language());

        Paste unknown = created(world.api.send(multipart("oneshot", "data.xyz")));
        assertEquals("data.xyz", unknown.fileName());
        assertNull(unknown.language(), "an extension it does not know: the page detects one");

        Paste unfit = created(world.api.send(multipart("file", "x".repeat(129) + ".py")));
        assertNull(unfit.fileName(), "a name the client did not choose as a label is dropped, the paste kept");
        assertNull(unfit.language());

        Paste overlong = created(world.api.send(multipart("file", "x".repeat(5_000) + ".py")));
        assertNull(overlong.fileName(), "however long the name, it is dropped, not an error");
        assertNull(overlong.language());
    }

    @Test
    void badLabelsAreRefusedWithTheirCodesAndNothingIsCreated() throws Exception {
        record Case(HttpApi.Request request, String code) {}
        List<Case> cases = List.of(
                new Case(json("{\"content\":\"x\",\"language\":\"klingon\"}"), "INVALID_LANGUAGE"),
                new Case(json("{\"content\":\"x\",\"language\":\"Java\"}"), "INVALID_LANGUAGE"),
                new Case(json("{\"content\":\"x\",\"language\":42}"), "INVALID_LANGUAGE"),
                new Case(json("{\"content\":\"x\",\"fileName\":\"../etc/passwd\"}"), "INVALID_FILE_NAME"),
                new Case(json("{\"content\":\"x\",\"fileName\":\"\"}"), "INVALID_FILE_NAME"),
                new Case(json("{\"content\":\"x\",\"fileName\":\"a\\u202Etxt.exe\"}"), "INVALID_FILE_NAME"),
                new Case(json("{\"content\":\"x\",\"fileName\":[\"a\"]}"), "INVALID_FILE_NAME"),
                new Case(
                        world.api.fixture("create-paste-text").query("fileName", "x".repeat(129)), "INVALID_FILE_NAME"),
                new Case(world.api.fixture("create-paste-text").query("language", "c++"), "INVALID_LANGUAGE"));
        for (Case c : cases) {
            HttpApi.Response response = world.api.send(c.request());
            assertEquals(400, response.status(), response.text());
            Map<String, Object> error = world.json(response);
            assertEquals(c.code(), error.get("code"), response.text());
            assertTrue(
                    ((String) error.get("message"))
                            .contains(c.code().equals("INVALID_LANGUAGE") ? "language" : "fileName"),
                    response.text());
        }
        assertEquals(0, world.drainQueue().size(), "nothing queued");
    }

    @Test
    void anIdempotencyKeyHoldsTheLabelsToo() throws Exception {
        String key = "labels-" + System.nanoTime();
        HttpApi.Response first = world.api.send(json("{\"content\":\"same\",\"language\":\"go\",\"fileName\":\"a.go\"}")
                .header("Idempotency-Key", key));
        HttpApi.Response again = world.api.send(json("{\"content\":\"same\",\"language\":\"go\",\"fileName\":\"a.go\"}")
                .header("Idempotency-Key", key));
        HttpApi.Response otherLanguage =
                world.api.send(json("{\"content\":\"same\",\"language\":\"rust\",\"fileName\":\"a.go\"}")
                        .header("Idempotency-Key", key));
        HttpApi.Response otherName =
                world.api.send(json("{\"content\":\"same\",\"language\":\"go\",\"fileName\":\"b.go\"}")
                        .header("Idempotency-Key", key));
        HttpApi.Response unlabelled =
                world.api.send(json("{\"content\":\"same\"}").header("Idempotency-Key", key));

        assertEquals(201, first.status(), first.text());
        assertEquals("true", again.header("Idempotent-Replayed"), again.text());
        assertEquals(world.json(first).get("shortCode"), world.json(again).get("shortCode"));
        for (HttpApi.Response different : List.of(otherLanguage, otherName, unlabelled)) {
            assertEquals(422, different.status(), different.text());
            assertEquals("IDEMPOTENCY_KEY_REUSED", world.json(different).get("code"));
        }
    }
}
