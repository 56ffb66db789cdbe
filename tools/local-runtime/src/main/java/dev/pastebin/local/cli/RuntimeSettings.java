package dev.pastebin.local.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Settings of the local runtime and of local invoke (see {@link CommandLineFlags} for the flags). Relative
 * paths are resolved against the working directory.
 *
 * @param template           the SAM template that says which functions exist and how they are triggered
 * @param envVars            SAM env-vars files ({@code {"Parameters": {...}, "<LogicalId>": {...}}}), in the order
 *                           given: a later file's variable wins; none: empty
 * @param parameterOverrides template parameter values that win over the Defaults
 * @param physicalNames      the local name of a queue or bucket, by logical id, when the template does not name it
 * @param ricLib             the Lambda runtime interface client and its dependencies (built into target/ric-lib)
 * @param workDir            scratch space for built and unpacked artifacts; null: a fresh temporary directory
 * @param instances          execution environments per function at most (SQS triggers raise it to their
 *                           MaximumConcurrency)
 * @param eager              start each function's first environment at startup instead of on first use
 * @param scheduleInterval   when set, every Schedule event fires at this interval instead of its rate
 * @param region             the region written into ARNs and events and given to the functions
 * @param accountId          the account id written into ARNs and events (LocalStack's default account)
 * @param javaHome           the JDK the function JVMs run on (the template's Runtime names Lambda's); null: this JVM's
 * @param dashboard          the application's dashboard panels ({@code DashboardPanels}); null: only the table of
 *                           every metric
 * @param initTimeout        how long a function's init phase may take before its invocation fails (Lambda: 10 s)
 * @param recordCallsDir     where the functions record their AWS calls ({@code PASTEBIN_RECORD_CALLS_DIR}, absolute);
 *                           null: they record nothing and run without the recorder
 * @param callRecorderLib    the directory holding the call recorder's jar (built into target/call-recorder)
 * @param classArchives      where the function JVMs keep class-data-sharing archives ({@code --class-archives},
 *                           {@code PASTEBIN_LOCAL_CLASS_ARCHIVES}; the test command's), for faster starts; null: none,
 *                           as on Lambda
 */
public record RuntimeSettings(
        String host,
        int port,
        Path template,
        List<Path> envVars,
        Map<String, String> parameterOverrides,
        Map<String, String> physicalNames,
        Path ricLib,
        Path workDir,
        int instances,
        boolean eager,
        Duration scheduleInterval,
        String region,
        String accountId,
        Path javaHome,
        Path dashboard,
        Duration initTimeout,
        Path recordCallsDir,
        Path callRecorderLib,
        Path classArchives) {

    /** A JVM on a busy laptop needs more than Lambda's 10 s; the test command sets more still. */
    public static final Duration DEFAULT_INIT_TIMEOUT = Duration.ofSeconds(60);

    public RuntimeSettings {
        envVars = List.copyOf(envVars);
        parameterOverrides = Map.copyOf(parameterOverrides);
        physicalNames = Map.copyOf(physicalNames);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be 0..65535, got " + port);
        }
        if (instances < 1) {
            throw new IllegalArgumentException("--instances must be at least 1, got " + instances);
        }
        if (initTimeout.isNegative() || initTimeout.isZero()) {
            throw new IllegalArgumentException("--init-timeout must be positive, got " + initTimeout);
        }
    }

    public Path javaExecutable() {
        return (javaHome != null ? javaHome : Path.of(System.getProperty("java.home"))).resolve("bin/java");
    }
}
