package dev.pastebin.infra.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * Every {@code oneOf} of the document between object schemas names alternatives a body can match only one of: a body
 * with every field one alternative requires must fail each other one, by a field that one forbids ({@code not:
 * required}), a field it does not allow ({@code additionalProperties: false}) or a constant it holds otherwise. A
 * {@code oneOf} that a valid body matches twice refuses that body: Schemathesis's stateful phase found a large
 * create's 201 (a CreatedPaste with its uploads) valid under both of its alternatives.
 */
class OpenApiAlternativesTest {

    @Test
    void aBodyOfOneAlternativeOfAOneOfMatchesNoOther() throws Exception {
        Map<String, Object> document = new Yaml().load(Files.readString(OpenApiDocumentTest.DOCUMENT));
        Map<String, Object> schemas = map(map(document.get("components")).get("schemas"));
        List<String> ambiguous = new ArrayList<>();
        visit(document, "", schemas, ambiguous);
        assertEquals(List.of(), ambiguous, "alternatives of a oneOf a body of one of them also matches");
    }

    private static void visit(Object node, String path, Map<String, Object> schemas, List<String> ambiguous) {
        if (node instanceof Map<?, ?> map) {
            List<String> alternatives = referencedAlternatives(map.get("oneOf"));
            for (String body : alternatives) {
                for (String other : alternatives) {
                    if (!body.equals(other) && matches(map(schemas.get(body)), map(schemas.get(other)))) {
                        ambiguous.add(path + ": a " + body + " is a " + other + " too");
                    }
                }
            }
            map.forEach((key, value) -> visit(value, path + "/" + key, schemas, ambiguous));
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                visit(list.get(i), path + "/" + i, schemas, ambiguous);
            }
        }
    }

    /** The schema names of a oneOf whose every alternative is a $ref to a schema; empty otherwise. */
    private static List<String> referencedAlternatives(Object oneOf) {
        if (!(oneOf instanceof List<?> list)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (Object alternative : list) {
            if (!(alternative instanceof Map<?, ?> ref) || !(ref.get("$ref") instanceof String target)) {
                return List.of();
            }
            names.add(target.substring(target.lastIndexOf('/') + 1));
        }
        return names;
    }

    /** Whether a body with exactly {@code body}'s required fields, valued as it says, passes {@code other}. */
    private static boolean matches(Map<String, Object> body, Map<String, Object> other) {
        Set<String> fields = new TreeSet<>(strings(body.get("required")));
        if (!fields.containsAll(strings(other.get("required")))) {
            return false;
        }
        Object not = other.get("not");
        if (not != null && fields.containsAll(strings(map(not).get("required")))) {
            return false;
        }
        Map<String, Object> allowed = map(other.getOrDefault("properties", Map.of()));
        if (Boolean.FALSE.equals(other.get("additionalProperties"))
                && !allowed.keySet().containsAll(fields)) {
            return false;
        }
        Map<String, Object> valued = map(body.getOrDefault("properties", Map.of()));
        for (String field : fields) {
            Object mine = valued.get(field) instanceof Map<?, ?> m ? m.get("const") : null;
            Object theirs = allowed.get(field) instanceof Map<?, ?> m ? m.get("const") : null;
            if (theirs != null && !Objects.equals(mine, theirs)) {
                return false;
            }
        }
        return true;
    }

    private static List<String> strings(Object list) {
        List<String> out = new ArrayList<>();
        if (list instanceof List<?> items) {
            items.forEach(item -> out.add(String.valueOf(item)));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node) {
        return (Map<String, Object>) node;
    }
}
