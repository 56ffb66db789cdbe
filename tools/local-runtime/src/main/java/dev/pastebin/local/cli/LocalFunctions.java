package dev.pastebin.local.cli;

import dev.pastebin.local.lambda.FunctionConfiguration;
import dev.pastebin.local.lambda.FunctionOutput;
import dev.pastebin.local.lambda.JavaRuntime;
import dev.pastebin.local.lambda.LocalFunction;
import dev.pastebin.local.lambda.TaskRoots;
import dev.pastebin.local.template.FunctionDefinition;
import dev.pastebin.local.template.ResourceAttributes;
import dev.pastebin.local.template.SamTemplate;
import dev.pastebin.local.template.TemplateValues;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The functions of the SAM template, each ready to be invoked in function JVMs of its own (created on first
 * use): its code built or unpacked into a task root, its environment variables resolved from the template
 * and overridden by the env-vars file. Closing stops every function process.
 */
final class LocalFunctions implements AutoCloseable {

    private final SamTemplate template;
    private final ResourceAttributes resources;
    private final EnvVarsFile envVars;
    private final JavaRuntime runtime;
    private final TaskRoots taskRoots;
    private final int instances;
    private final boolean prepareAtStart;
    private final PrintStream log;
    private final FunctionOutput output;
    private final Map<String, LocalFunction> functions = new LinkedHashMap<>();

    LocalFunctions(
            SamTemplate template,
            ResourceAttributes resources,
            EnvVarsFile envVars,
            JavaRuntime runtime,
            TaskRoots taskRoots,
            int instances,
            boolean prepareAtStart,
            PrintStream log,
            FunctionOutput output) {
        this.template = template;
        this.resources = resources;
        this.envVars = envVars;
        this.runtime = runtime;
        this.taskRoots = taskRoots;
        this.instances = instances;
        this.prepareAtStart = prepareAtStart;
        this.log = log;
        this.output = output;
    }

    SamTemplate template() {
        return template;
    }

    /** The function with this logical id, built if its code needs a build. */
    synchronized LocalFunction get(String logicalId) {
        return functions.computeIfAbsent(logicalId, id -> create(template.function(id)));
    }

    private LocalFunction create(FunctionDefinition definition) {
        List<String> unresolved = new ArrayList<>();
        Map<String, String> variables =
                new LinkedHashMap<>(TemplateValues.resolveAll(definition.environment(), resources, unresolved));
        Map<String, String> overrides = envVars.forFunction(definition.logicalId());
        variables.putAll(overrides);
        unresolved.removeAll(overrides.keySet());
        if (!unresolved.isEmpty()) {
            log.println(definition.logicalId() + ": no local value for " + unresolved
                    + " (set them with --env-vars or --parameter-overrides); left unset");
        }
        // The task root (a zip unpacked, a makefile build) is prepared when the function first runs: a test's runtime
        // uses a few of the template's functions, and unpacking all of them took seconds of every start. An eager
        // runtime (make run) prepares every one now, so a missing artifact stops its start.
        var function = new LocalFunction(
                definition.logicalId(),
                () -> new FunctionConfiguration(
                        definition.logicalId(),
                        definition.handler(),
                        definition.runtime(),
                        taskRoots.taskRoot(definition.logicalId(), definition.codeUri(), definition.buildMethod()),
                        definition.memorySizeMb(),
                        definition.timeout(),
                        variables,
                        List.of()),
                runtime,
                environments(definition),
                log,
                output);
        if (prepareAtStart) {
            function.configuration();
        }
        return function;
    }

    /** Enough execution environments for every batch its enabled SQS triggers may have in flight. */
    private int environments(FunctionDefinition definition) {
        int sqsConcurrency = definition.sqsTriggers().stream()
                .filter(FunctionDefinition.SqsTrigger::enabled)
                .mapToInt(FunctionDefinition.SqsTrigger::maximumConcurrency)
                .sum();
        return Math.max(instances, sqsConcurrency);
    }

    @Override
    public synchronized void close() {
        // side by side: a function JVM writing its class archive takes seconds to end (JavaRuntime#withClassArchives)
        List<Thread> closing = functions.values().stream()
                .map(function -> Thread.ofVirtual().start(function::close))
                .toList();
        for (Thread thread : closing) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        taskRoots.close();
    }
}
