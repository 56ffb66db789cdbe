package dev.pastebin.benchmarks.harness;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The few things the harness takes from infra/template.yaml: each function's Handler, CodeUri and
 * MemorySize, and the literal environment variables (Globals and per function, e.g. JAVA_TOOL_OPTIONS).
 * Values built with intrinsics (!Ref, !Sub, ...) are AWS-only and skipped; the local values win anyway.
 */
final class Template {

    record Function(String logicalId, String handler, String codeUri, int memoryMb, Map<String, String> literalEnv) {
    }

    /** A CloudFormation intrinsic function: kept apart from literal strings. */
    record Intrinsic(String tag, Object value) {
    }

    private final Map<String, Function> functions = new LinkedHashMap<>();

    private Template() {
    }

    static Template read(Path file) throws IOException {
        Template t = new Template();
        if (!Files.isRegularFile(file)) {
            return t;
        }
        Object root = new Yaml(new CfnConstructor()).load(Files.readString(file));
        if (!(root instanceof Map<?, ?> doc)) {
            return t;
        }
        Map<?, ?> globals = map(map(doc.get("Globals")).get("Function"));
        Map<String, String> globalEnv = literals(map(map(globals.get("Environment")).get("Variables")));
        int globalMemory = intOr(globals.get("MemorySize"), 512);
        for (Map.Entry<?, ?> e : map(doc.get("Resources")).entrySet()) {
            Map<?, ?> res = map(e.getValue());
            if (!"AWS::Serverless::Function".equals(res.get("Type"))) {
                continue;
            }
            Map<?, ?> props = map(res.get("Properties"));
            Map<String, String> env = new LinkedHashMap<>(globalEnv);
            env.putAll(literals(map(map(props.get("Environment")).get("Variables"))));
            Object handler = props.get("Handler") != null ? props.get("Handler") : globals.get("Handler");
            Object codeUri = props.get("CodeUri") != null ? props.get("CodeUri") : globals.get("CodeUri");
            t.functions.put(e.getKey().toString(), new Function(e.getKey().toString(),
                    handler instanceof String s ? s : null, codeUri instanceof String s ? s : String.valueOf(codeUri),
                    intOr(props.get("MemorySize"), globalMemory), env));
        }
        return t;
    }

    /** The function whose CodeUri names {@code module} (e.g. create-function), or whose logical id starts like it. */
    Optional<Function> forModule(String module) {
        for (Function f : functions.values()) {
            if (f.codeUri() != null && f.codeUri().contains(module)) {
                return Optional.of(f);
            }
        }
        String stem = module.replace("-function", "").toLowerCase();
        return functions.values().stream().filter(f -> f.logicalId().toLowerCase().startsWith(stem)).findFirst();
    }

    Map<String, Function> functions() {
        return functions;
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static int intOr(Object o, int fallback) {
        return o instanceof Number n ? n.intValue() : fallback;
    }

    private static Map<String, String> literals(Map<?, ?> vars) {
        Map<String, String> out = new LinkedHashMap<>();
        vars.forEach((k, v) -> {
            if (v instanceof String || v instanceof Number || v instanceof Boolean) {
                out.put(k.toString(), v.toString());
            }
        });
        return out;
    }

    private static final class CfnConstructor extends SafeConstructor {
        CfnConstructor() {
            super(new LoaderOptions());
            this.yamlMultiConstructors.put("!", new AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    Object value;
                    if (node instanceof ScalarNode s) {
                        value = s.getValue();
                    } else if (node instanceof SequenceNode sq) {
                        value = constructSequence(sq);
                    } else {
                        value = constructMapping((MappingNode) node);
                    }
                    return new Intrinsic(node.getTag().getValue(), value);
                }
            });
        }
    }
}
