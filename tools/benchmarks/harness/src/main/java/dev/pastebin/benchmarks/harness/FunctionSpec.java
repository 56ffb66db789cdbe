package dev.pastebin.benchmarks.harness;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the launcher needs to start one function the way Lambda's Java runtime does: the unzipped
 * artifact (task root, with {@code lib/*.jar}), the handler string, the environment and extra JVM flags.
 */
record FunctionSpec(String label, Path taskRoot, String handler, Map<String, String> env, List<String> jvmFlags) {

    FunctionSpec withEnv(String key, String value) {
        Map<String, String> e = new LinkedHashMap<>(env);
        e.put(key, value);
        return new FunctionSpec(label, taskRoot, handler, e, jvmFlags);
    }

    FunctionSpec withFlags(List<String> extra) {
        List<String> f = new ArrayList<>(jvmFlags);
        f.addAll(extra);
        return new FunctionSpec(label, taskRoot, handler, env, f);
    }

    FunctionSpec withTaskRoot(Path root) {
        return new FunctionSpec(label, root, handler, env, jvmFlags);
    }

    FunctionSpec withHandler(String h) {
        return new FunctionSpec(label, taskRoot, h, env, jvmFlags);
    }

    FunctionSpec withLabel(String l) {
        return new FunctionSpec(l, taskRoot, handler, env, jvmFlags);
    }
}
