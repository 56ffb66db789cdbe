package dev.pastebin.infra.template;


import dev.pastebin.local.CloudFormationYaml;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * infra/template.yaml as plain maps, with CloudFormation's short-form tags ({@code !Ref}, {@code !GetAtt},
 * {@code !Sub}, ...) turned into their long JSON form ({@code {"Ref": ...}}, {@code {"Fn::GetAtt": [...]}}),
 * the way CloudFormation itself reads them.
 */
final class CfnTemplate {

    static final Path INFRA = locateInfra();
    static final Path FILE = INFRA.resolve("template.yaml");

    private final Map<String, Object> root;

    private CfnTemplate(Map<String, Object> root) {
        this.root = root;
    }

    static CfnTemplate load() {
        return load(FILE);
    }

    static CfnTemplate load(Path file) {
        try {
            return new CfnTemplate(map(CloudFormationYaml.load(Files.readString(file, StandardCharsets.UTF_8)), "template"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    Map<String, Object> root() {
        return root;
    }

    Map<String, Object> resources() {
        return map(root.get("Resources"), "Resources");
    }

    Map<String, Object> resource(String logicalId) {
        return map(resources().get(logicalId), "resource " + logicalId);
    }

    String type(String logicalId) {
        return (String) resource(logicalId).get("Type");
    }

    Map<String, Object> properties(String logicalId) {
        return map(resource(logicalId).get("Properties"), logicalId + ".Properties");
    }

    Map<String, Object> parameter(String name) {
        return map(map(root.get("Parameters"), "Parameters").get(name), "parameter " + name);
    }

    /** Logical ids of every resource of {@code type}, in template order. */
    List<String> resourcesOfType(String type) {
        return resources().entrySet().stream()
                .filter(e -> type.equals(map(e.getValue(), e.getKey()).get("Type")))
                .map(Map.Entry::getKey).toList();
    }

    Map<String, Object> globalsFunction() {
        Object globals = root.get("Globals");
        return globals == null ? Map.of() : map(map(globals, "Globals").getOrDefault("Function", Map.of()), "Globals.Function");
    }

    /** A function property as SAM sees it: the function's own value, else the Globals one. */
    Object functionProperty(String logicalId, String name) {
        Object own = properties(logicalId).get(name);
        return own != null ? own : globalsFunction().get(name);
    }

    /** The environment a function gets: Globals' variables merged with its own (its own win). */
    Map<String, Object> environment(String logicalId) {
        Map<String, Object> merged = new LinkedHashMap<>(variables(globalsFunction().get("Environment")));
        merged.putAll(variables(properties(logicalId).get("Environment")));
        return merged;
    }

    /** A literal, or a {@code Ref} to a parameter resolved to the parameter's Default. */
    Object valueOrDefault(Object value) {
        if (value instanceof Map<?, ?> m && m.size() == 1 && m.containsKey("Ref")) {
            Map<String, Object> parameter = parameter((String) m.get("Ref"));
            return Objects.requireNonNull(parameter.get("Default"), "parameter " + m.get("Ref") + " has no Default");
        }
        return value;
    }

    int intValue(Object value) {
        return Integer.parseInt(String.valueOf(valueOrDefault(value)));
    }

    /** The parameter name when {@code value} is {@code {"Ref": name}} of a parameter, else null. */
    String parameterRef(Object value) {
        if (value instanceof Map<?, ?> m && m.size() == 1 && m.get("Ref") instanceof String name
                && map(root.get("Parameters"), "Parameters").containsKey(name)) {
            return name;
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value, String what) {
        if (!(value instanceof Map)) {
            throw new AssertionError("template: " + what + " is not a mapping: " + value);
        }
        return (Map<String, Object>) value;
    }

    private static Map<String, Object> variables(Object environment) {
        if (environment == null) {
            return Map.of();
        }
        Object variables = map(environment, "Environment").get("Variables");
        return variables == null ? Map.of() : map(variables, "Environment.Variables");
    }

    private static Path locateInfra() {
        // Maven runs tests in the module directory (infra/); an IDE may run them from the repository root.
        for (Path candidate : List.of(Path.of(""), Path.of("infra"))) {
            if (Files.isRegularFile(candidate.resolve("template.yaml"))) {
                return candidate.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException("infra/template.yaml not found from " + Path.of("").toAbsolutePath());
    }
}
