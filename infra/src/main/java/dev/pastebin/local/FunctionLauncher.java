package dev.pastebin.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts a function's execution environment the way Lambda's java21 runtime does: a fresh JVM whose class
 * path is only the runtime interface client (ric-lib, like /var/runtime/lib), main class
 * {@code AWSLambda} with the Handler as argument, working directory = task root, and a clean environment
 * holding the variables Lambda sets plus the template's and the local services' settings.
 */
final class FunctionLauncher {

    static final String RIC_MAIN = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";

    /** Variables passed from the local environment: what infra/local/lib.sh exports for the functions. */
    private static final List<String> PASS_THROUGH_PREFIXES = List.of("DATASOURCES_", "PASTEBIN_", "AWS_ENDPOINT_URL",
            "MICRONAUT_");
    private static final List<String> PASS_THROUGH = List.of("AWS_S3_PATH_STYLE_ACCESS_ENABLED", "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN");

    private final Path javaExecutable;
    private final Path ricLib;
    private final String region;
    private final String accountId;
    private final Map<String, String> localEnvironment;
    private final PrintStream logs;

    FunctionLauncher(Path javaExecutable, Path ricLib, String region, String accountId,
                     Map<String, String> localEnvironment, PrintStream logs) {
        if (!Files.isDirectory(ricLib)) {
            throw new IllegalStateException("the Lambda runtime interface client is missing: " + ricLib
                    + " does not exist. Build infra first: mvn -B -DskipTests package");
        }
        this.javaExecutable = javaExecutable;
        this.ricLib = ricLib;
        this.region = region;
        this.accountId = accountId;
        this.localEnvironment = localEnvironment;
        this.logs = logs;
    }

    String functionArn(FunctionDefinition function) {
        return "arn:aws:lambda:" + region + ":" + accountId + ":function:" + function.logicalId();
    }

    Process start(FunctionDefinition function, Path taskRoot, String runtimeApi) throws IOException {
        // The java21 runtime's bootstrap: heap at 85% of the memory size, serial GC, C1 only.
        List<String> command = new ArrayList<>(List.of(javaExecutable.toString(),
                "-XX:MaxHeapSize=" + (function.memorySizeMb() * 85 / 100) + "m",
                "-XX:+UseSerialGC", "-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "--add-opens=java.base/java.io=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                "-Djava.net.preferIPv4Stack=true",
                "-classpath", ricLib.toAbsolutePath() + "/*",
                RIC_MAIN, function.handler()));
        ProcessBuilder pb = new ProcessBuilder(command).directory(taskRoot.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.clear();
        env.putAll(environment(function, taskRoot, runtimeApi));
        Process process = pb.start();
        pipe(process, "[" + function.logicalId() + "] ");
        return process;
    }

    /** The environment of the function process; visible for tests. */
    Map<String, String> environment(FunctionDefinition function, Path taskRoot, String runtimeApi) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("LANG", "en_US.UTF-8");
        env.put("TZ", ":UTC");
        env.put("LAMBDA_TASK_ROOT", taskRoot.toAbsolutePath().toString());
        env.put("LAMBDA_RUNTIME_DIR", ricLib.toAbsolutePath().toString());
        env.put("AWS_LAMBDA_RUNTIME_API", runtimeApi);
        env.put("_HANDLER", function.handler());
        env.put("AWS_EXECUTION_ENV", "AWS_Lambda_java21");
        env.put("AWS_LAMBDA_FUNCTION_NAME", function.logicalId());
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(function.memorySizeMb()));
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand");
        env.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + function.logicalId());
        env.put("AWS_LAMBDA_LOG_STREAM_NAME", "local/[$LATEST]" + Long.toHexString(System.nanoTime()));
        env.put("AWS_REGION", region);
        env.put("AWS_DEFAULT_REGION", region);
        env.putAll(function.environment());
        localEnvironment.forEach((name, value) -> {
            if (PASS_THROUGH.contains(name) || PASS_THROUGH_PREFIXES.stream().anyMatch(name::startsWith)) {
                env.put(name, value);
            }
        });
        return env;
    }

    /** Copies the process's output (its "CloudWatch log") line by line, prefixed with the function name. */
    private void pipe(Process process, String prefix) {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    logs.println(prefix + line);
                }
            } catch (IOException e) {
                // The process is gone; nothing left to copy.
            }
        }, prefix.trim() + "-log");
        t.setDaemon(true);
        t.start();
    }
}
