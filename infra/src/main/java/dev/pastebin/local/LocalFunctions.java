package dev.pastebin.local;

import io.micronaut.context.annotation.Value;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The functions of the SAM template, each ready to be invoked in its own function JVM (created on first use).
 * Closing stops every function process.
 */
@Singleton
public final class LocalFunctions implements AutoCloseable {

    private final LocalRuntimeConfiguration config;
    private final SamTemplate template;
    private final FunctionLauncher launcher;
    private final FunctionArtifacts artifacts;
    private final Map<String, LocalFunction> functions = new LinkedHashMap<>();
    private final PrintStream log = System.err;

    LocalFunctions(LocalRuntimeConfiguration config, @Value("${aws.region:us-east-1}") String region) {
        this.config = config;
        this.template = SamTemplate.read(config.resolve(config.template()));
        String javaHome = config.javaHome() != null ? config.javaHome() : System.getProperty("java.home");
        this.launcher = new FunctionLauncher(Path.of(javaHome, "bin", "java"),
                config.resolve(config.ricLib()), region, config.accountId(), System.getenv(), log);
        this.artifacts = new FunctionArtifacts(config.resolve(config.workDir()));
    }

    public SamTemplate template() {
        return template;
    }

    /** The function with this logical id; its artifact must have been built. */
    public synchronized LocalFunction get(String logicalId) {
        return functions.computeIfAbsent(logicalId, id -> {
            FunctionDefinition definition = template.function(id);
            return new LocalFunction(definition, launcher, artifacts.taskRoot(definition), config.instances(), log);
        });
    }

    @PreDestroy
    @Override
    public synchronized void close() {
        functions.values().forEach(LocalFunction::close);
        artifacts.close();
    }
}
