package dev.pastebin.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.local.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Environment variable overrides in the format of {@code sam local invoke --env-vars}: the object
 * {@code "Parameters"} applies to every function, an object named after a function's logical id to that
 * function only (and wins). Unlike SAM, a variable the template does not declare is added, so that local
 * settings with no place in the deployed template (e.g. database credentials that come from a secret on AWS)
 * can be given too. Several files are read in order, a later file's variable winning within its section.
 */
public record EnvVarsFile(Map<String, Map<String, String>> sections) {

    public static final EnvVarsFile NONE = new EnvVarsFile(Map.of());
    private static final String EVERY_FUNCTION = "Parameters";

    /** The files in order, each variable from the last file that sets it in the same section. */
    public static EnvVarsFile read(List<Path> files) {
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        for (Path file : files) {
            read(file)
                    .sections
                    .forEach((section, variables) -> sections.computeIfAbsent(section, s -> new LinkedHashMap<>())
                            .putAll(variables));
        }
        return new EnvVarsFile(sections);
    }

    public static EnvVarsFile read(Path file) {
        if (file == null) {
            return NONE;
        }
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the env-vars file " + file + ": " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(
                    file + " is not a JSON object like {\"Parameters\": {\"NAME\": \"value\"}}");
        }
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        root.properties().forEach(section -> {
            if (!section.getValue().isObject()) {
                throw new IllegalArgumentException(
                        file + ": \"" + section.getKey() + "\" is not an object of variables");
            }
            Map<String, String> variables = new LinkedHashMap<>();
            section.getValue()
                    .properties()
                    .forEach(v -> variables.put(v.getKey(), v.getValue().asText()));
            sections.put(section.getKey(), variables);
        });
        return new EnvVarsFile(sections);
    }

    /** The overrides for one function: the shared ones, then its own. */
    public Map<String, String> forFunction(String logicalId) {
        Map<String, String> variables = new LinkedHashMap<>(sections.getOrDefault(EVERY_FUNCTION, Map.of()));
        variables.putAll(sections.getOrDefault(logicalId, Map.of()));
        return variables;
    }
}
