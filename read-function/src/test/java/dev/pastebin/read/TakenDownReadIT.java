package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.moderation.Takedown;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.RealServices;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A code with no row and a takedown's tombstone answers 451 PASTE_TAKEN_DOWN on every read route (GET, and HEAD where a route has it);
 * a code with neither is still 404 (docs/design.md, "Takedowns and the blocklist").
 */
@RealServices
class TakenDownReadIT {

    @RegisterExtension
    static final ReadWorld world = new ReadWorld("takedown-read-it");

    private static final List<String> ROUTES =
            List.of("/pastes/%s", "/%s", "/%s.py", "/raw/%s", "/raw/%s.txt", "/documents/%s", "/documents/%s.js");

    private static String takenDown() {
        String code = world.api.context().getBean(ShortCodes.class).next();
        world.api
                .context()
                .getBean(TakedownRepository.class)
                .save(Takedown.of(
                        code, "illegal content", "arn:aws:iam::000000000000:user/operator", "c".repeat(64), 5));
        return code;
    }

    @Test
    void everyReadRouteAnswers451ForATakenDownPaste() throws Exception {
        String code = takenDown();
        for (String route : ROUTES) {
            String path = route.formatted(code);
            for (Map.Entry<String, String> accept :
                    Map.of("json", "application/json", "any", "*/*").entrySet()) {
                HttpApi.Response response = world.api.send(
                        world.api.fixture("read-paste").path(path).header("Accept", accept.getValue()));
                assertEquals(451, response.status(), path + " " + accept.getKey() + ": " + response.text());
                if (accept.getKey().equals("json")) {
                    assertEquals("PASTE_TAKEN_DOWN", world.json(response).get("code"), path);
                }
                assertEquals("no-store", response.header("Cache-Control"), path);
            }
        }
        // the one read route with HEAD
        HttpApi.Response head =
                world.api.send(world.api.fixture("read-paste").method("HEAD").path("/pastes/" + code));
        assertEquals(451, head.status(), "HEAD /pastes/" + code);
    }

    @Test
    void aCodeThatWasNeverTakenDownIsStillNotFound() throws Exception {
        String code = world.api.context().getBean(ShortCodes.class).next();

        HttpApi.Response response =
                world.api.send(world.api.fixture("read-paste").path("/pastes/" + code));

        assertEquals(404, response.status(), response.text());
        assertEquals("PASTE_NOT_FOUND", world.json(response).get("code"));
    }
}
