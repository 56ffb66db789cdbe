package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.PastePaths;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Head;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link PastePaths#edgePaths} covers every path a read route serves a paste under: each GET or HEAD route of the
 * read function with a code in its path, the code put in, is matched by one of the edge paths (a trailing
 * {@code *} matches any rest), with and without a haste suffix. A new read route that the takedown's invalidation
 * would miss fails here.
 */
class EdgePathsTest {

    private static final String CODE = "aB3xYz9QkLm";

    @Test
    void everyReadRouteWithACodeIsInvalidatedAtTheEdge() {
        List<String> routes = new ArrayList<>();
        for (Class<?> controller :
                List.of(ReadPasteController.class, HasteReadController.class, WebPagesController.class)) {
            String base = controller.getAnnotation(Controller.class).value();
            for (Method method : controller.getDeclaredMethods()) {
                String uri = method.isAnnotationPresent(Get.class)
                        ? uriOf(method.getAnnotation(Get.class))
                        : method.isAnnotationPresent(Head.class)
                                ? method.getAnnotation(Head.class).value()
                                : null;
                if (uri != null && uri.contains("{")) {
                    routes.add((base.equals("/") ? "" : base) + uri);
                }
            }
        }
        assertTrue(routes.size() >= 5, routes.toString());
        List<String> edge = PastePaths.edgePaths(CODE);
        for (String route : routes) {
            if (route.startsWith("/assets/")) {
                continue; // the page's files: no code in them
            }
            String path = route.replaceAll("\\{[^}]+}", CODE);
            for (String variant : List.of(path, path + ".py", path + "?x=1")) {
                assertTrue(
                        edge.stream()
                                .anyMatch(p -> p.endsWith("*")
                                        ? variant.startsWith(p.substring(0, p.length() - 1))
                                        : variant.equals(p)),
                        variant + " (route " + route + ") is not among " + edge);
            }
        }
    }

    private static String uriOf(Get get) {
        return get.uri().equals("/") && !get.value().equals("/") ? get.value() : get.uri();
    }
}
