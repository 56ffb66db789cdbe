package dev.pastebin.infra.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pastebin.api.http.ApiErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * docs/openapi.yaml is the API's one OpenAPI 3.1 document: the documents micronaut-openapi generates from each
 * HTTP function's controllers at compile time (target/openapi/*.yml, see the root pom's "openapi" profile),
 * merged. This test fails when the committed document drifts from what the controllers generate; run it with
 * {@code -Dopenapi.update=true} to rewrite the document (then review the diff).
 */
class OpenApiDocumentTest {

    static final Path DOCUMENT = Path.of("..", "docs", "openapi.yaml");
    /** The HTTP functions and the document each generates. */
    static final List<Path> GENERATED = List.of(
            Path.of("..", "create-function", "target", "openapi", "create.yml"),
            Path.of("..", "read-function", "target", "openapi", "read.yml"),
            Path.of("..", "remove-function", "target", "openapi", "remove.yml"),
            Path.of("..", "report-function", "target", "openapi", "report.yml"));

    @Test
    void theCommittedDocumentIsWhatTheControllersGenerate() throws IOException {
        Map<String, Object> merged = merge();
        String yaml = dump(merged);
        if (Boolean.getBoolean("openapi.update")) {
            Files.writeString(DOCUMENT, yaml);
        }
        assertTrue(Files.exists(DOCUMENT), DOCUMENT + " is missing; run this test with -Dopenapi.update=true");
        assertEquals(
                yaml,
                Files.readString(DOCUMENT),
                DOCUMENT
                        + " is not what the controllers generate; run this test with -Dopenapi.update=true and review the diff");
    }

    @Test
    void everyReferenceResolvesAndEveryOperationAnswersErrorsInTheErrorShape() throws IOException {
        Map<String, Object> merged = merge();
        List<String> refs = new ArrayList<>();
        collectRefs(merged, refs);
        for (String ref : refs) {
            assertTrue(ref.startsWith("#/"), ref);
            Object target = merged;
            for (String part : ref.substring(2).split("/")) {
                target = target instanceof Map<?, ?> map ? map.get(part) : null;
            }
            assertTrue(target != null, "unresolved " + ref);
        }
        paths(merged)
                .forEach((path, operations) -> operations.forEach((method, operation) -> {
                    Map<String, Object> responses = map(map(operation).get("responses"));
                    for (String status : responses.keySet()) {
                        if (status.startsWith("4") || status.startsWith("5")) {
                            String ref = (String) map(responses.get(status)).get("$ref");
                            // the shared error responses; an API key's refusals add their headers to the same body
                            assertTrue(
                                    ref != null
                                            && (ref.endsWith("/Error")
                                                    || ref.endsWith("/Unavailable")
                                                    || ref.endsWith("/ApiKeyRefused")
                                                    || ref.endsWith("/ApiKeyQuotaExceeded")),
                                    method + " " + path + " " + status + " is not the error response: " + ref);
                        }
                    }
                    assertTrue(responses.containsKey("503"), method + " " + path + " documents 503");
                }));
    }

    /** A client switches on the error's code: the document names every code the functions answer, and no other. */
    @Test
    void theErrorCodesAreExactlyTheOnesTheFunctionsAnswer() throws IOException {
        Map<String, Object> error =
                map(map(map(merge().get("components")).get("schemas")).get("ApiError"));
        Object documented = map(map(error.get("properties")).get("code")).get("enum");
        Set<String> codes =
                Arrays.stream(ApiErrorCode.values()).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(
                codes,
                new TreeSet<>((List<?>) documented)
                        .stream().map(String::valueOf).collect(Collectors.toCollection(TreeSet::new)),
                "ApiError.code's enum against ApiErrorCode");
    }

    /** The generated documents' paths and components, under the API's own title. */
    static Map<String, Object> merge() throws IOException {
        Map<String, Map<String, Object>> paths = new TreeMap<>();
        Map<String, Map<String, Object>> components = new TreeMap<>();
        for (Path file : GENERATED) {
            if (!Files.exists(file)) {
                fail(file + " does not exist: build the HTTP function modules first (mvn compile)");
            }
            Map<String, Object> document = new Yaml().load(Files.readString(file));
            assertEquals("3.1.0", document.get("openapi"), file.toString());
            paths(document)
                    .forEach((path, operations) -> operations.forEach((method, operation) -> {
                        Object earlier = paths.computeIfAbsent(path, p -> new TreeMap<>())
                                .put(method, operation);
                        assertTrue(earlier == null, method + " " + path + " is generated by two functions");
                    }));
            map(document.get("components"))
                    .forEach((section, entries) -> map(entries).forEach((name, entry) -> {
                        Object earlier = components
                                .computeIfAbsent(section, s -> new TreeMap<>())
                                .put(name, entry);
                        assertTrue(
                                earlier == null || earlier.equals(entry),
                                "components/" + section + "/" + name + " differs between functions");
                    }));
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("openapi", "3.1.0");
        // LinkedHashMap: Map.of iterates in an order that changes per JVM, and the file must not
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("title", "Pastebin API");
        info.put("version", "1");
        info.put(
                "description",
                "Create a paste, read it when it is stored, delete it with its token, let it expire, "
                        + "read it once, report it to the operator. Generated from the controllers of the create, "
                        + "read, remove and report functions "
                        + "(infra's OpenApiDocumentTest keeps this file in step with them).");
        document.put("info", info);
        document.put("paths", paths);
        document.put("components", components);
        return document;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> paths(Map<String, Object> document) {
        Map<String, Map<String, Object>> paths = new TreeMap<>();
        map(document.get("paths")).forEach((path, operations) -> paths.put(path, (Map<String, Object>) operations));
        return paths;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value == null ? Map.of() : (Map<String, Object>) value;
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

    static String dump(Map<String, Object> document) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setWidth(120);
        options.setIndicatorIndent(2);
        options.setIndentWithIndicator(true);
        return "# Generated from the controllers; do not edit (infra's OpenApiDocumentTest, -Dopenapi.update=true).\n"
                + new Yaml(new SafeConstructor(new LoaderOptions()), new Representer(options), options).dump(document);
    }
}
