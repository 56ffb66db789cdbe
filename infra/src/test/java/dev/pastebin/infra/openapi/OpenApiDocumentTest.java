package dev.pastebin.infra.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.RawBody;
import dev.pastebin.local.template.CloudFormationTemplate;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.CookieValue;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Head;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Options;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.yaml.snakeyaml.Yaml;

/**
 * docs/openapi.yaml is the API's one OpenAPI 3.1 document, written by hand; these checks hold it to the code: the
 * routes it describes are the routes the HTTP functions' controllers declare (as compiled) and the HttpApi events
 * of the functions that serve them in infra/template.yaml; its error codes are {@link ApiErrorCode}'s; every header,
 * query value and path variable a controller binds from the request is a parameter of the documented operation.
 * What the running functions answer is checked against it by Schemathesis (infra/local/schemathesis.sh).
 *
 * <p>One instance for all its tests: reading every HTTP function's compiled controllers takes seconds, and the
 * tests only read what it found.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiDocumentTest {

    static final Path DOCUMENT = Path.of("..", "docs", "openapi.yaml");
    static final Path TEMPLATE = Path.of("template.yaml");

    /**
     * Routes the controllers declare that are not the API, and why: pages and files for browsers and people, which
     * answer HTML, scripts or text whose shape is no contract.
     */
    static final Map<Route, String> NOT_API = Map.of(
            new Route("GET", "/"), "the web page that creates a paste (WebPagesController)",
            new Route("GET", "/p/{shortCode}"), "the web page that shows a paste (WebPagesController)",
            new Route("GET", "/assets/{file}"), "the web pages' scripts, style sheet and icons (WebPagesController)",
            new Route("GET", "/.well-known/security.txt"),
                    "RFC 9116's contact file, for people (SecurityTxtController)");

    /**
     * Controller parameters the framework binds from something other than a named part of the request, and why
     * they need no parameter of their own in the document.
     */
    static final Map<String, String> FRAMEWORK_BOUND = Map.of(
            HttpRequest.class.getName(),
            "the request itself; what a controller reads from it by hand is documented by hand",
            RawBody.class.getName(),
            "the body as bytes (RawBodyBinder): the operation documents a requestBody instead",
            "dev.pastebin.create.Caller",
            "the caller API Gateway's JWT authorizer verified (CallerBinder), not a request parameter");

    /**
     * Micronaut's route annotations, each with its HTTP method. Only what a controller declares counts: the HEAD
     * route Micronaut adds to every GET is not documented (nor routed by the template) except where a controller
     * declares its own {@code @Head}.
     */
    private static final Map<Class<? extends Annotation>, Function<Annotation, String>> ROUTE_ANNOTATIONS = Map.of(
            Get.class, a -> uri(((Get) a).value(), ((Get) a).uri()),
            Post.class, a -> uri(((Post) a).value(), ((Post) a).uri()),
            Put.class, a -> uri(((Put) a).value(), ((Put) a).uri()),
            Delete.class, a -> uri(((Delete) a).value(), ((Delete) a).uri()),
            Head.class, a -> uri(((Head) a).value(), ((Head) a).uri()),
            Options.class, a -> uri(((Options) a).value(), ((Options) a).uri()),
            Patch.class, a -> uri(((Patch) a).value(), ((Patch) a).uri()));

    private static final Set<String> OPERATION_KEYS =
            Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    private static final Pattern URI_VARIABLE = Pattern.compile("\\{([^}]+)}");

    private final Map<String, Object> document = load();
    private final CloudFormationTemplate template = CloudFormationTemplate.load(TEMPLATE);
    private final List<Handler> handlers = handlers();

    /** A method and a path as the document writes them ({@code /pastes/{shortCode}}). */
    record Route(String method, String path) implements Comparable<Route> {

        /** Micronaut matches a path with or without its trailing slash; API Gateway and the document tell them apart. */
        Route normalized() {
            return path.length() > 1 && path.endsWith("/")
                    ? new Route(method, path.substring(0, path.length() - 1))
                    : this;
        }

        @Override
        public int compareTo(Route other) {
            return (path + " " + method).compareTo(other.path + " " + other.method);
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /** A controller method that serves a route, and the function (template resource) it is deployed in. */
    record Handler(Route route, Method method, String function) {}

    @Test
    void theDocumentedRoutesAreTheControllersRoutesThatAreApi() {
        Set<Route> declared = handlers.stream().map(Handler::route).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(declared.containsAll(NOT_API.keySet()), "NOT_API lists routes no controller declares: " + declared);
        Set<Route> api = new TreeSet<>(declared);
        api.removeAll(NOT_API.keySet());
        Set<Route> documented =
                documentedRoutes().stream().map(Route::normalized).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(api, documented, "the controllers' API routes (less NOT_API) against docs/openapi.yaml's");
    }

    @Test
    void everyDocumentedRouteIsAnHttpApiEventOfTheFunctionThatServesItAndEveryEventIsDocumented() {
        for (Route route : documentedRoutes()) {
            Set<String> functions = handlers.stream()
                    .filter(h -> h.route().equals(route.normalized()))
                    .map(Handler::function)
                    .collect(Collectors.toSet());
            assertEquals(1, functions.size(), route + " is served by one function: " + functions);
            String function = functions.iterator().next();
            assertTrue(
                    httpApiEvents(function).contains(route),
                    route + " is not an HttpApi event of " + function + ": " + httpApiEvents(function));
        }
        Set<Route> documented = new TreeSet<>(documentedRoutes());
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            for (Route event : httpApiEvents(function)) {
                assertTrue(
                        documented.contains(event) || NOT_API.containsKey(event),
                        function + "'s HttpApi event " + event + " is neither documented nor listed in NOT_API");
            }
        }
    }

    @Test
    void theErrorCodesTheDocumentNamesAreApiErrorCodes() {
        Map<String, Object> code =
                map(map(map(schema("ApiError").get("properties")).get("code")));
        Set<String> documented = new TreeSet<>(strings(code.get("enum")));
        Set<String> codes =
                Arrays.stream(ApiErrorCode.values()).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(codes, documented, "ApiError's code enum in docs/openapi.yaml against ApiErrorCode");
    }

    @Test
    void everyParameterAControllerBindsFromTheRequestIsDocumentedOnItsOperation() {
        for (Handler handler : handlers) {
            if (NOT_API.containsKey(handler.route())) {
                continue;
            }
            List<String> uriVariables = uriVariables(handler.route().path());
            for (Route documented : documentedRoutes()) {
                if (!documented.normalized().equals(handler.route())) {
                    continue;
                }
                Map<String, Object> operation = operation(documented);
                Set<String> parameters = documentedParameters(operation);
                String where =
                        documented + " (" + handler.method().getDeclaringClass().getSimpleName() + "."
                                + handler.method().getName() + ")";
                for (String variable : uriVariables) {
                    assertTrue(parameters.contains("path " + variable), where + " documents path variable " + variable);
                }
                assertEquals(
                        uriVariables.size(),
                        parameters.stream().filter(p -> p.startsWith("path ")).count(),
                        where + " documents exactly its path variables: " + parameters);
                for (Parameter parameter : handler.method().getParameters()) {
                    bound(parameter, uriVariables)
                            .ifPresentOrElse(
                                    name -> {
                                        if (name.equals("body")) {
                                            assertTrue(
                                                    operation.containsKey("requestBody"),
                                                    where + " documents its body");
                                        } else {
                                            assertTrue(
                                                    parameters.contains(name),
                                                    where + " documents " + name + " (" + parameter + "): "
                                                            + parameters);
                                        }
                                    },
                                    () -> {
                                        String why = FRAMEWORK_BOUND.get(
                                                parameter.getType().getName());
                                        assertTrue(
                                                why != null,
                                                where + " binds " + parameter + ", which is not documented");
                                        if (parameter.getType() == RawBody.class) {
                                            assertTrue(
                                                    operation.containsKey("requestBody"),
                                                    where + " documents its body");
                                        }
                                    });
                }
            }
        }
    }

    @Test
    void everyReferenceResolvesAndEveryOperationAnswersErrorsInItsErrorShape() {
        List<String> refs = new ArrayList<>();
        collectRefs(document, refs);
        for (String ref : refs) {
            assertTrue(ref.startsWith("#/"), ref);
            Object target = document;
            for (String part : ref.substring(2).split("/")) {
                target = target instanceof Map<?, ?> map ? map.get(part) : null;
            }
            assertTrue(target != null, "unresolved " + ref);
        }
        for (Route route : documentedRoutes()) {
            Map<String, Object> responses = map(operation(route).get("responses"));
            // PrivateBin's clients read every answer, errors too, in PrivateBin's own JSON shape
            boolean privateBin = route.path().startsWith("/pb");
            String error = privateBin ? "/PrivateBinError" : "/Error";
            String unavailable = privateBin ? "/PrivateBinUnavailable" : "/Unavailable";
            // a private instance's refusals of a create (401, 429) carry the error's body and their own headers
            String keyRefused = privateBin ? "/PrivateBinApiKeyRefused" : "/ApiKeyRefused";
            String overQuota = privateBin ? "/PrivateBinApiKeyQuotaExceeded" : "/ApiKeyQuotaExceeded";
            for (String status : responses.keySet()) {
                if (status.startsWith("4") || status.startsWith("5")) {
                    String ref = (String) map(responses.get(status)).get("$ref");
                    assertTrue(
                            ref != null
                                    && (ref.endsWith(error)
                                            || ref.endsWith(unavailable)
                                            || ("401".equals(status) && ref.endsWith(keyRefused))
                                            || ("429".equals(status) && ref.endsWith(overQuota))),
                            route + " " + status + " is not the error response: " + ref);
                }
            }
            assertTrue(responses.containsKey("503"), route + " documents 503");
            assertTrue(
                    map(responses.get("503")).get("$ref").toString().endsWith(unavailable),
                    route + " answers 503 as " + unavailable);
        }
    }

    @Test
    void theDocumentSaysItIsWrittenByHandAndWhatChecksIt() throws IOException {
        String head = Files.readString(DOCUMENT)
                .lines()
                .takeWhile(l -> l.startsWith("#"))
                .collect(Collectors.joining("\n"));
        assertTrue(head.contains("by hand"), head);
        assertTrue(head.contains("OpenApiDocumentTest") && head.contains("schemathesis.sh"), head);
        assertFalse(head.contains("Generated"), head);
    }

    /**
     * What a controller parameter binds, as the document names it ({@code header Idempotency-Key}, {@code query
     * expiresIn}, {@code path shortCode}, {@code body}), or nothing for a parameter the framework binds otherwise.
     */
    private static Optional<String> bound(Parameter parameter, List<String> uriVariables) {
        Header header = parameter.getAnnotation(Header.class);
        if (header != null) {
            return Optional.of(
                    "header " + named(header.value(), header.name(), parameter).toLowerCase(Locale.ROOT));
        }
        QueryValue query = parameter.getAnnotation(QueryValue.class);
        if (query != null) {
            return Optional.of("query " + named(query.value(), "", parameter));
        }
        PathVariable path = parameter.getAnnotation(PathVariable.class);
        if (path != null) {
            return Optional.of("path " + named(path.value(), path.name(), parameter));
        }
        CookieValue cookie = parameter.getAnnotation(CookieValue.class);
        if (cookie != null) {
            return Optional.of("cookie " + named(cookie.value(), "", parameter));
        }
        if (parameter.isAnnotationPresent(Body.class)) {
            return Optional.of("body");
        }
        if (FRAMEWORK_BOUND.containsKey(parameter.getType().getName())) {
            return Optional.empty();
        }
        // without an annotation Micronaut binds a URI variable of the parameter's name, else a query value
        return Optional.of((uriVariables.contains(parameter.getName()) ? "path " : "query ") + parameter.getName());
    }

    private static String named(String value, String name, Parameter parameter) {
        assertTrue(parameter.isNamePresent(), "compiled without -parameters: " + parameter);
        return !value.isEmpty() ? value : !name.isEmpty() ? name : parameter.getName();
    }

    /** Parameters of an operation as {@code in name}; header names in lower case (HTTP's are case-insensitive). */
    private Set<String> documentedParameters(Map<String, Object> operation) {
        Set<String> names = new TreeSet<>();
        for (Object item : list(operation.get("parameters"))) {
            Map<String, Object> parameter = resolve(map(item));
            String in = (String) parameter.get("in");
            String name = (String) parameter.get("name");
            names.add(in + " " + ("header".equals(in) ? name.toLowerCase(Locale.ROOT) : name));
        }
        return names;
    }

    /** Every (method, path) the document describes, its paths as written. */
    private Set<Route> documentedRoutes() {
        Set<Route> routes = new TreeSet<>();
        map(document.get("paths"))
                .forEach((path, item) -> map(item).keySet().stream()
                        .filter(OPERATION_KEYS::contains)
                        .forEach(method -> routes.add(new Route(method.toUpperCase(Locale.ROOT), path))));
        return routes;
    }

    private Map<String, Object> operation(Route route) {
        return map(map(map(document.get("paths")).get(route.path()))
                .get(route.method().toLowerCase(Locale.ROOT)));
    }

    private Map<String, Object> schema(String name) {
        return map(map(map(document.get("components")).get("schemas")).get(name));
    }

    private Map<String, Object> resolve(Map<String, Object> node) {
        Object ref = node.get("$ref");
        if (ref == null) {
            return node;
        }
        Object target = document;
        for (String part : ref.toString().substring(2).split("/")) {
            target = map(target).get(part);
        }
        return map(target);
    }

    /** The HttpApi events of a function of the template, as routes. */
    private Set<Route> httpApiEvents(String function) {
        Set<Route> events = new TreeSet<>();
        map(template.properties(function).get("Events")).values().stream()
                .map(OpenApiDocumentTest::map)
                .filter(event -> "HttpApi".equals(event.get("Type")))
                .map(event -> map(event.get("Properties")))
                .forEach(properties -> events.add(new Route(
                        properties.get("Method").toString().toUpperCase(Locale.ROOT),
                        properties.get("Path").toString())));
        return events;
    }

    /**
     * The route methods of the controllers of every function with an HttpApi event, read from the classes Maven
     * compiled into the function's CodeUri.
     */
    private List<Handler> handlers() {
        List<Handler> found = new ArrayList<>();
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            if (httpApiEvents(function).isEmpty()) {
                continue;
            }
            Path classes = TEMPLATE.toAbsolutePath()
                    .getParent()
                    .resolve(String.valueOf(template.properties(function).get("CodeUri")))
                    .resolve("target/classes")
                    .normalize();
            assertTrue(Files.isDirectory(classes), classes + " does not exist: build the function modules first");
            // the function modules are not on this test's class path (infra depends on them as poms only)
            ClassLoader loader =
                    new URLClassLoader(new URL[] {url(classes)}, getClass().getClassLoader());
            for (JavaClass controller : new ClassFileImporter().importPath(classes)) {
                if (!controller.isAnnotatedWith(Controller.class)) {
                    continue;
                }
                Class<?> type = load(controller.getName(), loader);
                String base = type.getAnnotation(Controller.class).value();
                for (Method method : type.getDeclaredMethods()) {
                    ROUTE_ANNOTATIONS.forEach((annotation, uri) -> {
                        Annotation route = method.getAnnotation(annotation);
                        if (route != null) {
                            String name = annotation.getSimpleName().toUpperCase(Locale.ROOT);
                            found.add(new Handler(new Route(name, join(base, uri.apply(route))), method, function));
                        }
                    });
                }
            }
        }
        assertTrue(found.size() > 10, "the controllers' routes: " + found);
        return found;
    }

    private static URL url(Path directory) {
        try {
            return directory.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(directory.toString(), e);
        }
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(name, e);
        }
    }

    private static String uri(String value, String uri) {
        return "/".equals(uri) ? value : uri;
    }

    private static String join(String base, String uri) {
        String joined = ("/" + base + "/" + uri).replaceAll("/+", "/");
        return joined.length() > 1 && joined.endsWith("/") ? joined.substring(0, joined.length() - 1) : joined;
    }

    private static List<String> uriVariables(String path) {
        List<String> variables = new ArrayList<>();
        Matcher matcher = URI_VARIABLE.matcher(path);
        while (matcher.find()) {
            variables.add(matcher.group(1));
        }
        return variables;
    }

    private static Map<String, Object> load() {
        try {
            return new Yaml().load(Files.readString(DOCUMENT));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value == null ? Map.of() : (Map<String, Object>) value;
    }

    private static List<?> list(Object value) {
        return value == null ? List.of() : (List<?>) value;
    }

    private static List<String> strings(Object value) {
        return list(value).stream().map(String::valueOf).toList();
    }

    private static void collectRefs(Object node, List<String> refs) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                if ("$ref".equals(key)) {
                    refs.add((String) value);
                } else {
                    collectRefs(value, refs);
                }
            });
        } else if (node instanceof List<?> list) {
            list.forEach(item -> collectRefs(item, refs));
        }
    }
}
