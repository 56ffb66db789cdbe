package dev.pastebin.local.lambda;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What an execution environment of a function is started with, as Lambda's GetFunctionConfiguration
 * describes a function: its name, Handler, code (the task root), memory, timeout and environment variables.
 *
 * @param runtime        the template's Runtime (e.g. java25), which names the runtime in AWS_EXECUTION_ENV
 * @param taskRoot       the unpacked artifact: classes at its root, jars under {@code lib/} (LAMBDA_TASK_ROOT)
 * @param variables      the function's environment variables (the template's, resolved, plus local overrides)
 * @param extraJvmFlags  JVM flags after the runtime's own (the last occurrence of an {@code -XX} flag wins);
 *                       Lambda offers JAVA_TOOL_OPTIONS for this, experiments may want more
 */
public record FunctionConfiguration(
        String name,
        String handler,
        String runtime,
        Path taskRoot,
        int memorySizeMb,
        Duration timeout,
        Map<String, String> variables,
        List<String> extraJvmFlags) {

    public FunctionConfiguration {
        variables = Map.copyOf(variables);
        extraJvmFlags = List.copyOf(extraJvmFlags);
    }
}
