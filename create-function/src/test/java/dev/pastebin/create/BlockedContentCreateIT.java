package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.support.RealServices;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A body whose SHA-256 is on the operator's blocklist is refused with 451 on every create route and protocol, and
 * nothing is created or queued; a different body still creates on each (docs/using.md, the 451 answers).
 */
@RealServices
class BlockedContentCreateIT {

    private static final String BOUNDARY = "------------------------b10c4ed";

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("takedown-blocked-create-it");

    /** One create route and protocol: how it sends a text, and what it answers when it creates. */
    record Route(String name, Function<String, HttpApi.Request> request, int created, boolean jsonErrors) {}

    private static HttpApi.Request text(String path, String contentType, byte[] body) {
        return world.api
                .fixture("create-paste-text")
                .path(path)
                .header("Content-Type", contentType)
                .binaryBody(body);
    }

    private static byte[] form(String content) {
        return ("content=" + URLEncoder.encode(content, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] filePart(String content) {
        return ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes.txt\"\r\n"
                        + "Content-Type: text/plain\r\n\r\n" + content + "\r\n--" + BOUNDARY + "--\r\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static String json(String content) {
        try {
            return world.api.context().getBean(JsonMapper.class).writeValueAsString(Map.of("content", content));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final List<Route> ROUTES = List.of(
            new Route(
                    "POST /pastes JSON",
                    content -> world.api.fixture("create-paste-json").textBody(json(content)),
                    201,
                    true),
            new Route(
                    "POST /pastes raw",
                    content -> text("/pastes", "text/plain; charset=utf-8", content.getBytes(StandardCharsets.UTF_8)),
                    201,
                    true),
            new Route(
                    "POST /pastes form",
                    content -> text("/pastes", "application/x-www-form-urlencoded", form(content)),
                    200,
                    false),
            new Route(
                    "POST / form",
                    content -> text("/", "application/x-www-form-urlencoded", form(content)),
                    200,
                    false),
            new Route(
                    "POST / multipart file",
                    content -> text("/", "multipart/form-data; boundary=" + BOUNDARY, filePart(content)),
                    200,
                    false),
            new Route(
                    "POST /documents haste",
                    content -> text("/documents", "text/plain", content.getBytes(StandardCharsets.UTF_8)),
                    200,
                    true));

    @Test
    void aBlocklistedBodyIsRefusedWith451OnEveryCreateRouteAndADifferentOneStillCreates() throws Exception {
        String blocked = "known abuse " + UUID.randomUUID() + "\n";
        world.api
                .context()
                .getBean(ContentBlocklist.class)
                .add(
                        ContentHash.sha256Hex(blocked.getBytes(StandardCharsets.UTF_8)),
                        "known abuse",
                        "arn:aws:iam::000000000000:user/operator");

        for (Route route : ROUTES) {
            HttpApi.Response refused = world.api.send(route.request().apply(blocked));

            assertEquals(451, refused.status(), route.name() + ": " + refused.text());
            if (route.jsonErrors()) {
                assertEquals("application/json", refused.header("Content-Type"), route.name());
                Map<String, Object> error = world.json(refused);
                assertEquals("CONTENT_BLOCKED", error.get("code"), route.name());
                assertTrue(
                        error.get("message") instanceof String message && !message.isBlank(),
                        route.name() + ": a message for the client to show");
            } else {
                // these clients print the body: one plain line
                assertEquals("text/plain; charset=utf-8", refused.header("Content-Type"), route.name());
                assertTrue(
                        refused.text().endsWith("\n")
                                && refused.text().indexOf('\n')
                                        == refused.text().length() - 1,
                        route.name() + ": one line: " + refused.text());
            }
            assertTrue(world.drainQueue().isEmpty(), route.name() + ": nothing queued");

            String different = "not on the blocklist " + UUID.randomUUID() + "\n";
            HttpApi.Response created = world.api.send(route.request().apply(different));
            assertEquals(route.created(), created.status(), route.name() + ": " + created.text());
            assertEquals(1, world.drainQueue().size(), route.name() + ": its upload job");
        }
    }
}
