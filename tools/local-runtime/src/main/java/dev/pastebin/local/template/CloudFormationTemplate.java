package dev.pastebin.local.template;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A CloudFormation/SAM template as plain maps, short-form tags in their long form (see
 * {@link CloudFormationYaml}), with the lookups SAM applies: Globals.Function under each function's own
 * properties, and a {@code Ref} to a parameter replaced by its override or its Default.
 */
public final class CloudFormationTemplate {

    private final Path file;
    private final Map<String, Object> root;
    private final Map<String, String> parameterOverrides;

    private CloudFormationTemplate(Path file, Map<String, Object> root, Map<String, String> parameterOverrides) {
        this.file = file;
        this.root = root;
        this.parameterOverrides = Map.copyOf(parameterOverrides);
    }

    public static CloudFormationTemplate load(Path file) {
        return load(file, Map.of());
    }

    /** @param parameterOverrides parameter values that win over the Defaults, as {@code sam --parameter-overrides} */
    public static CloudFormationTemplate load(Path file, Map<String, String> parameterOverrides) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the template " + file + ": " + e.getMessage(), e);
        }
        return new CloudFormationTemplate(
                file.toAbsolutePath().normalize(),
                mapping(CloudFormationYaml.load(text), file.toString()),
                parameterOverrides);
    }

    public Path file() {
        return file;
    }

    /** The directory relative paths in the template (CodeUri) are resolved against. */
    public Path directory() {
        return file.getParent();
    }

    public Map<String, Object> root() {
        return root;
    }

    public Map<String, Object> resources() {
        return mapping(root.get("Resources"), "Resources");
    }

    public Map<String, Object> resource(String logicalId) {
        Object resource = resources().get(logicalId);
        if (resource == null) {
            throw new IllegalArgumentException("no resource '" + logicalId + "' in " + file);
        }
        return mapping(resource, "resource " + logicalId);
    }

    public boolean hasResource(String logicalId) {
        return resources().containsKey(logicalId);
    }

    public String type(String logicalId) {
        return (String) resource(logicalId).get("Type");
    }

    public Map<String, Object> properties(String logicalId) {
        return optionalMapping(resource(logicalId).get("Properties"), logicalId + ".Properties");
    }

    public Map<String, Object> parameters() {
        return optionalMapping(root.get("Parameters"), "Parameters");
    }

    public Map<String, Object> parameter(String name) {
        return mapping(parameters().get(name), "parameter " + name);
    }

    /** Logical ids of every resource of {@code type}, in template order. */
    public List<String> resourcesOfType(String type) {
        return resources().entrySet().stream()
                .filter(e -> type.equals(mapping(e.getValue(), e.getKey()).get("Type")))
                .map(Map.Entry::getKey)
                .toList();
    }

    public Map<String, Object> globalsFunction() {
        return optionalMapping(optionalMapping(root.get("Globals"), "Globals").get("Function"), "Globals.Function");
    }

    public Map<String, Object> globalsHttpApi() {
        return optionalMapping(optionalMapping(root.get("Globals"), "Globals").get("HttpApi"), "Globals.HttpApi");
    }

    /**
     * {@code resources}, and a template parameter besides: its {@code Ref} (also {@code ${Name}} in an
     * {@code Fn::Sub}) is its override or Default, as in CloudFormation.
     */
    public ResourceAttributes withParameters(ResourceAttributes resources) {
        return new ResourceAttributes() {
            @Override
            public Optional<String> ref(String logicalId) {
                if (parameters().containsKey(logicalId)) {
                    return parameterValue(logicalId).map(String::valueOf);
                }
                return resources.ref(logicalId);
            }

            @Override
            public Optional<String> getAtt(String logicalId, String attribute) {
                return resources.getAtt(logicalId, attribute);
            }
        };
    }

    /** A function property as SAM sees it: the function's own value, else the Globals one. */
    public Object functionProperty(String logicalId, String name) {
        Object own = properties(logicalId).get(name);
        return own != null ? own : globalsFunction().get(name);
    }

    /** The environment a function gets: Globals' variables merged with its own (its own win), unresolved. */
    public Map<String, Object> environment(String logicalId) {
        Map<String, Object> merged =
                new LinkedHashMap<>(variables(globalsFunction().get("Environment")));
        merged.putAll(variables(properties(logicalId).get("Environment")));
        return merged;
    }

    /** The parameter name when {@code value} is {@code {"Ref": name}} of a parameter of this template. */
    public Optional<String> parameterRef(Object value) {
        if (value instanceof Map<?, ?> m
                && m.size() == 1
                && m.get("Ref") instanceof String name
                && parameters().containsKey(name)) {
            return Optional.of(name);
        }
        return Optional.empty();
    }

    /**
     * {@code value} with every {@code Ref} to a parameter that has an override or a Default replaced by that
     * value (numeric strings as numbers, as a Number parameter is); anything else is left as it is.
     */
    public Object resolveParameters(Object value) {
        Optional<String> parameter = parameterRef(value);
        if (parameter.isPresent()) {
            return parameterValue(parameter.get()).orElse(value);
        }
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, resolveParameters(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(this::resolveParameters).toList();
        }
        return value;
    }

    /** A literal, or a {@code Ref} to a parameter resolved to its override or Default; fails if it has neither. */
    public Object valueOrDefault(Object value) {
        Object resolved = resolveParameters(value);
        if (parameterRef(resolved).isPresent()) {
            throw new IllegalArgumentException(
                    "parameter " + parameterRef(resolved).get() + " has no Default in " + file);
        }
        return resolved;
    }

    public int intValue(Object value) {
        return Integer.parseInt(String.valueOf(valueOrDefault(value)));
    }

    private Optional<Object> parameterValue(String name) {
        Object value = parameterOverrides.containsKey(name)
                ? parameterOverrides.get(name)
                : parameter(name).get("Default");
        if (value instanceof String s && s.matches("-?\\d+")) {
            return Optional.of(Long.valueOf(s));
        }
        return Optional.ofNullable(value);
    }

    /** {@code value} as a mapping; a clear error naming {@code what} otherwise. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> mapping(Object value, String what) {
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException(what + " is not a mapping: " + value);
        }
        return (Map<String, Object>) value;
    }

    private static Map<String, Object> optionalMapping(Object value, String what) {
        return value == null ? Map.of() : mapping(value, what);
    }

    private static Map<String, Object> variables(Object environment) {
        return optionalMapping(optionalMapping(environment, "Environment").get("Variables"), "Environment.Variables");
    }
}
