package dev.pastebin.local.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.template.FunctionDefinition;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpApiRoutesTest {

    private final HttpApiRoutes routes = new HttpApiRoutes();

    HttpApiRoutesTest() {
        add("POST", "/pastes");
        add("GET", "/pastes/{shortCode}");
        add("GET", "/pastes/latest");
        add("ANY", "/pastes/{shortCode}/{proxy+}");
    }

    private void add(String method, String path) {
        routes.add(null, new FunctionDefinition.HttpRoute(path, method, path));
    }

    private String match(String method, String path) {
        return routes.match(method, path)
                .map(m -> m.target().route().routeKey() + " " + m.pathParameters())
                .orElse("none");
    }

    @Test
    void theMostSpecificRouteWins() {
        assertEquals("GET /pastes/latest {}", match("GET", "/pastes/latest"));
        assertEquals("GET /pastes/{shortCode} {shortCode=abc}", match("GET", "/pastes/abc"));
        assertEquals("ANY /pastes/{shortCode}/{proxy+} {shortCode=abc, proxy=x/y}", match("DELETE", "/pastes/abc/x/y"));
    }

    @Test
    void methodAndPathMustMatch() {
        assertEquals("none", match("GET", "/pastes"));
        assertEquals("none", match("DELETE", "/pastes/abc"));
        assertEquals("none", match("GET", "/pastes/"));
        assertEquals("none", match("GET", "/other"));
    }

    @Test
    void pathParametersArePercentDecoded() {
        assertEquals(
                Map.of("shortCode", "a b"),
                routes.match("GET", "/pastes/a%20b").orElseThrow().pathParameters());
    }

    @Test
    void theDefaultRouteCatchesTheRest() {
        routes.add(null, new FunctionDefinition.HttpRoute("Default", "ANY", "$default"));
        assertTrue(match("GET", "/other").startsWith("ANY $default"));
        assertEquals("GET /pastes/latest {}", match("GET", "/pastes/latest"));
    }
}
