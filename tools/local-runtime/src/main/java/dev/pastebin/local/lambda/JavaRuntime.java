package dev.pastebin.local.lambda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipFile;

/**
 * Lambda's managed Java runtime (java21, java25), as far as a process can be: a fresh JVM whose class path is only the
 * runtime interface client (ric-lib, like /var/runtime/lib), main class {@code AWSLambda} with the Handler
 * as argument, working directory = task root, and a clean environment holding the variables Lambda sets,
 * the AWS SDK's own settings of this machine, the runtime's own ({@link #withVariable}), and the function's variables.
 */
public final class JavaRuntime {

    public static final String RIC_MAIN = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";

    /** The AWS SDK's generic settings a local function needs to reach the local services as this JVM does. */
    private static final List<String> SDK_VARIABLES =
            List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN");

    private static final String SDK_ENDPOINT_PREFIX = "AWS_ENDPOINT_URL";

    /**
     * Where the runtime interface client loads its JNI library from, when set. Unset, every function JVM
     * unpacks it to the one fixed path /tmp/.libaws-lambda-jni.so and maps it: a JVM starting while another
     * rewrites that file dies with SIGBUS (seen with several runtimes on one machine). Each runtime unpacks
     * it once, to a file of its own, and names it here.
     */
    static final String RIC_JNI_PROPERTY =
            "com.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI";

    private final Path javaExecutable;
    private final Path ricLib;
    private final String region;
    private final String accountId;
    private final Map<String, String> sdkVariables;
    private final Map<String, String> runtimeVariables = new LinkedHashMap<>();
    private Optional<Path> jniLibrary;
    private ClassArchives classArchives;
    private Duration initTimeout =
            Duration.ofSeconds(60); // RuntimeSettings.DEFAULT_INIT_TIMEOUT; the runtime sets its own

    /**
     * @param localEnvironment this machine's environment; only the AWS SDK's generic variables are passed on
     *                         ({@code AWS_ENDPOINT_URL*} and credentials)
     */
    public JavaRuntime(
            Path javaExecutable, Path ricLib, String region, String accountId, Map<String, String> localEnvironment) {
        if (!Files.isDirectory(ricLib)) {
            throw new IllegalStateException("the Lambda runtime interface client is missing: " + ricLib
                    + " does not exist. Build the local runtime first: mvn -B -DskipTests package");
        }
        this.javaExecutable = javaExecutable;
        this.ricLib = ricLib;
        this.region = region;
        this.accountId = accountId;
        this.sdkVariables = new LinkedHashMap<>();
        localEnvironment.forEach((name, value) -> {
            if (SDK_VARIABLES.contains(name) || name.startsWith(SDK_ENDPOINT_PREFIX)) {
                sdkVariables.put(name, value);
            }
        });
    }

    /**
     * A variable every function process gets from the runtime itself (e.g. where to record its AWS calls), after the
     * SDK's settings and before the function's own variables.
     */
    public synchronized JavaRuntime withVariable(String name, String value) {
        runtimeVariables.put(name, value);
        return this;
    }

    /** How long an environment's init phase may take before its invocation fails (Sandbox.Timedout). */
    public JavaRuntime withInitTimeout(Duration initTimeout) {
        this.initTimeout = initTimeout;
        return this;
    }

    /** Function JVMs map (or train) class-data-sharing archives in this directory: faster starts, for test runs. */
    public JavaRuntime withClassArchives(ClassArchives classArchives) {
        this.classArchives = classArchives;
        return this;
    }

    /** How the next process of this function uses the class archives ({@link ClassArchives.Use#NONE} without them). */
    public ClassArchives.Use classArchiveUse(FunctionConfiguration function) {
        boolean ownArchive = function.extraJvmFlags().stream()
                .anyMatch(f -> f.startsWith("-XX:AOTCache")
                        || f.startsWith("-XX:SharedArchiveFile")
                        || f.startsWith("-XX:ArchiveClassesAtExit"));
        return classArchives == null || ownArchive
                ? ClassArchives.Use.NONE
                : classArchives.use(function, javaExecutable);
    }

    public Duration initTimeout() {
        return initTimeout;
    }

    public String region() {
        return region;
    }

    public String accountId() {
        return accountId;
    }

    public String functionArn(String functionName) {
        return "arn:aws:lambda:" + region + ":" + accountId + ":function:" + functionName;
    }

    /**
     * The Java runtimes' own JVM flags: heap at 85% of the memory size, serial GC, C1 only (the default of
     * AWS's Java 17+ runtimes), CDS of the JDK's classes.
     */
    public static List<String> launcherFlags(int memorySizeMb) {
        return List.of(
                "-XX:MaxHeapSize=" + (memorySizeMb * 85 / 100) + "m",
                "-XX:+UseSerialGC",
                "-XX:+TieredCompilation",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "--add-opens=java.base/java.io=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-Djava.net.preferIPv4Stack=true");
    }

    /** The process of one execution environment, not yet started; its output is the caller's to redirect. */
    public ProcessBuilder processBuilder(FunctionConfiguration function, String runtimeApi) {
        return processBuilder(function, runtimeApi, ClassArchives.Use.NONE);
    }

    /** As {@link #processBuilder(FunctionConfiguration, String)}, mapping or training a class archive as given. */
    public ProcessBuilder processBuilder(FunctionConfiguration function, String runtimeApi, ClassArchives.Use archive) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable.toString());
        // JDK 25's AOT cache refuses an explicit -Xshare mode; it maps the JDK's CDS archive itself.
        boolean aotCache = function.extraJvmFlags().stream().anyMatch(f -> f.startsWith("-XX:AOTCache"));
        launcherFlags(function.memorySizeMb()).stream()
                .filter(f -> !(aotCache && f.startsWith("-Xshare")))
                .forEach(command::add);
        command.addAll(archive.flags());
        command.addAll(function.extraJvmFlags());
        jniLibrary().ifPresent(library -> command.add("-D" + RIC_JNI_PROPERTY + "=" + library));
        command.addAll(List.of("-classpath", ricLib.toAbsolutePath() + "/*", RIC_MAIN, function.handler()));
        ProcessBuilder pb =
                new ProcessBuilder(command).directory(function.taskRoot().toFile());
        pb.environment().clear();
        pb.environment().putAll(environment(function, runtimeApi));
        return pb;
    }

    /**
     * The runtime interface client's JNI library for this machine, unpacked once into a file of this runtime;
     * empty where the client has none for it (the client then falls back to its own unpacking).
     */
    synchronized Optional<Path> jniLibrary() {
        if (jniLibrary == null) {
            jniLibrary = unpackJniLibrary();
        }
        return jniLibrary;
    }

    private Optional<Path> unpackJniLibrary() {
        String arch = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch_64";
            default -> null;
        };
        if (arch == null || !System.getProperty("os.name").equals("Linux")) {
            return Optional.empty();
        }
        try (var files = Files.list(ricLib)) {
            Optional<Path> jar = files.filter(
                            f -> f.getFileName().toString().startsWith("aws-lambda-java-runtime-interface-client-"))
                    .findFirst();
            if (jar.isEmpty()) {
                return Optional.empty();
            }
            try (ZipFile zip = new ZipFile(jar.get().toFile())) {
                var entry = zip.getEntry("jni/libaws-lambda-jni.linux-" + arch + ".so");
                if (entry == null) {
                    return Optional.empty();
                }
                Path library = Files.createTempFile("aws-lambda-jni-", ".so");
                library.toFile().deleteOnExit();
                try (InputStream in = zip.getInputStream(entry)) {
                    Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
                }
                return Optional.of(library);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("unpacking the runtime interface client's JNI library from " + ricLib, e);
        }
    }

    /** The environment of the function process. */
    synchronized Map<String, String> environment(FunctionConfiguration function, String runtimeApi) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("LANG", "en_US.UTF-8");
        env.put("TZ", ":UTC");
        env.put("LAMBDA_TASK_ROOT", function.taskRoot().toAbsolutePath().toString());
        env.put("LAMBDA_RUNTIME_DIR", ricLib.toAbsolutePath().toString());
        env.put("AWS_LAMBDA_RUNTIME_API", runtimeApi);
        env.put("_HANDLER", function.handler());
        env.put("AWS_EXECUTION_ENV", "AWS_Lambda_" + function.runtime());
        env.put("AWS_LAMBDA_FUNCTION_NAME", function.name());
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(function.memorySizeMb()));
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand");
        env.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + function.name());
        env.put("AWS_LAMBDA_LOG_STREAM_NAME", "local/[$LATEST]" + Long.toHexString(System.nanoTime()));
        env.put("AWS_REGION", region);
        env.put("AWS_DEFAULT_REGION", region);
        env.putAll(sdkVariables);
        env.putAll(runtimeVariables);
        env.putAll(function.variables());
        return env;
    }
}
