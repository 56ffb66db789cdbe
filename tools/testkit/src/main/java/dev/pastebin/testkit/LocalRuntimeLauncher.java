package dev.pastebin.testkit;

import dev.pastebin.faults.FaultProxy;
import dev.pastebin.local.lambda.ClassArchives;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The local runtime (module local-runtime) on infra/template.yaml as a child process for one run: started as the
 * README's run command ({@link #runCommand}, which first brings up the services and creates the run's resources) or
 * as its main class in a JVM of its own ({@link #java}, with the flags the run command gives it). {@link #start()}
 * returns once its HTTP API listens (and, when asked, once its functions are initialised); {@link #stop()} sends it a
 * TERM (its shutdown hook stops the function processes), and a KILL when it has not ended after a grace period.
 *
 * <p>Configure it, then start it once: {@code LocalRuntimeLauncher.runCommand(root).port(0).logTo(log).start()}.
 *
 * <p>Where {@value #CLASS_ARCHIVES_VARIABLE} names a directory (the test command sets it), the runtime started as
 * its main class passes it on to its functions, as the runtime's own flag, and its own JVM maps a class archive
 * there too: the test command starts some 40 runtimes, and one that maps the archive an earlier one wrote at its end
 * starts on half the CPU. One that trains the archive must end on the TERM of {@link #stop()} to keep it.
 */
public final class LocalRuntimeLauncher implements AutoCloseable {

    /** The runtime's line once its HTTP API listens; group 1 is the port. */
    public static final Pattern LISTENING = Pattern.compile("Local API listening on http://[^:]+:(\\d+)");

    /** The runtime's line once the functions it starts eagerly are initialised. */
    public static final Pattern READY = Pattern.compile("Ready: \\d+ function\\(s\\) initialised");

    static final String MAIN_CLASS = "dev.pastebin.local.cli.LocalRuntime";

    /** The local runtime's own variable: where its function JVMs keep their class archives. */
    static final String CLASS_ARCHIVES_VARIABLE = "PASTEBIN_LOCAL_CLASS_ARCHIVES";

    private static final Duration POLL = Duration.ofMillis(200);

    private final Path root;
    private final List<String> command;
    private final List<String> unset;
    /** The runtime JVM's class path, with {@link #java}: what its class archive is made of. */
    private final List<Path> classPath;

    private ClassArchives classArchives;
    private ClassArchives.Use classArchive = ClassArchives.Use.NONE;
    private final Map<String, String> environment = new HashMap<>();
    private final List<String> arguments = new ArrayList<>();
    private int port;
    private Path log;
    private PrintStream echo;
    private String echoPrefix = "";
    private Duration listeningWithin = Duration.ofMinutes(5);
    private Duration readyWithin;
    private Duration stopWithin = Duration.ofSeconds(60);

    @SuppressWarnings("JdkObsolete") // synchronised on purpose: the reader thread appends while callers read
    private final StringBuffer output = new StringBuffer();

    private Process process;
    private Thread reader;
    private int listeningPort;

    LocalRuntimeLauncher(Path root, List<String> command, List<String> unset) {
        this(root, command, unset, List.of());
    }

    /** {@code command} starts the runtime's JVM: its first element is the {@code java} the archive flags follow. */
    LocalRuntimeLauncher(Path root, List<String> command, List<String> unset, List<Path> classPath) {
        this.root = root;
        this.command = List.copyOf(command);
        this.unset = List.copyOf(unset);
        this.classPath = List.copyOf(classPath);
        String archives = System.getenv(CLASS_ARCHIVES_VARIABLE);
        if (!classPath.isEmpty() && archives != null && !archives.isBlank()) {
            this.classArchives = new ClassArchives(Path.of(archives));
        }
    }

    /**
     * {@code infra/local/run.sh --no-build} in {@code root}, on artifacts already built. The queue URLs of a shell set
     * up for other queues ({@code export_app_env}) are not passed on: the run's own queue names must win.
     */
    public static LocalRuntimeLauncher runCommand(Path root) {
        return new LocalRuntimeLauncher(
                root,
                List.of("infra/local/run.sh", "--no-build"),
                List.of("PASTEBIN_UPLOAD_QUEUE_URL", "PASTEBIN_UPLOAD_DLQ_URL"));
    }

    /**
     * The runtime's main class in this JVM's {@code java}, from its build in {@code root} (the jar and
     * runtime-classpath.txt in tools/local-runtime/target), on infra/template.yaml with the local dashboard's panels
     * and the functions' environment from {@code envVars} (the format of {@code sam local invoke --env-vars}).
     */
    public static LocalRuntimeLauncher java(Path root, Path envVars) throws IOException {
        Path target = root.resolve("tools/local-runtime/target");
        Path jar;
        try (var files = Files.list(target)) {
            jar = files.filter(p -> p.getFileName().toString().matches("pastebin-local-runtime-.*\\.jar")
                            && !p.getFileName().toString().endsWith("-tests.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("the local runtime is not built (no jar in " + target
                            + "); run: mvn -B -DskipTests package"));
        }
        String classpath = jar
                + File.pathSeparator
                + Files.readString(target.resolve("runtime-classpath.txt")).trim();
        return new LocalRuntimeLauncher(
                root,
                List.of(
                        javaExecutable().toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-cp",
                        classpath,
                        MAIN_CLASS,
                        "--template",
                        "infra/template.yaml",
                        "--dashboard",
                        "infra/local/dashboard.json",
                        "--env-vars",
                        envVars.toString()),
                List.of(),
                Stream.of(classpath.split(File.pathSeparator)).map(Path::of).toList());
    }

    private static Path javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /**
     * With {@link #java}: the runtime's JVM maps (or trains) its class archive in {@code directory}, whatever
     * {@value #CLASS_ARCHIVES_VARIABLE} says.
     */
    public LocalRuntimeLauncher classArchives(Path directory) {
        this.classArchives = classPath.isEmpty() ? null : new ClassArchives(directory);
        return this;
    }

    /** The local API's port; 0 (the default) lets the runtime take a free one, which {@link #port()} tells. */
    public LocalRuntimeLauncher port(int port) {
        this.port = port;
        return this;
    }

    /** Variables for the runtime's process (over this process's own), which it passes on to the functions' processes. */
    public LocalRuntimeLauncher environment(Map<String, String> variables) {
        environment.putAll(variables);
        return this;
    }

    /** The functions reach the proxy's service through it: the SDK's own endpoint variable of that service. */
    public LocalRuntimeLauncher through(FaultProxy proxy) {
        environment.put(
                "AWS_ENDPOINT_URL_" + proxy.service().name(), proxy.endpoint().toString());
        return this;
    }

    /** {@code --physical-name}: the names of the template's upload queue, its dead-letter queue and bucket. */
    public LocalRuntimeLauncher physicalNames(String queue, String deadLetterQueue, String bucket) {
        return arguments(List.of(
                "--physical-name",
                "UploadQueue=" + queue + ",UploadDeadLetterQueue=" + deadLetterQueue + ",PasteBucket=" + bucket));
    }

    /** More flags for the runtime, after the others (e.g. {@code --schedule-interval 3s}). */
    public LocalRuntimeLauncher arguments(List<String> more) {
        arguments.addAll(more);
        return this;
    }

    /** Everything the runtime and its functions print goes to this file (replaced). */
    public LocalRuntimeLauncher logTo(Path file) {
        this.log = file;
        return this;
    }

    /** Without a log file: every line the runtime prints is also printed to {@code stream}, after {@code prefix}. */
    public LocalRuntimeLauncher echoTo(PrintStream stream, String prefix) {
        this.echo = stream;
        this.echoPrefix = prefix;
        return this;
    }

    /** How long {@link #start()} waits for the API to listen (5 min unless set). */
    public LocalRuntimeLauncher listeningWithin(Duration timeout) {
        this.listeningWithin = timeout;
        return this;
    }

    /** {@link #start()} also waits, this long, for the {@link #READY} line (by default it does not). */
    public LocalRuntimeLauncher readyWithin(Duration timeout) {
        this.readyWithin = timeout;
        return this;
    }

    /** How long {@link #stop()} waits after the TERM before it kills the runtime (60 s unless set). */
    public LocalRuntimeLauncher stopWithin(Duration grace) {
        this.stopWithin = grace;
        return this;
    }

    /** The whole command line. */
    List<String> commandLine() {
        List<String> line = new ArrayList<>(command);
        line.addAll(List.of("--port", Integer.toString(port)));
        line.addAll(arguments);
        return line;
    }

    /**
     * Starts the runtime and waits until its API listens (and, with {@link #readyWithin}, its functions are ready);
     * when it does not, stops it and throws.
     */
    public LocalRuntimeLauncher start() throws IOException, InterruptedException {
        if (process != null) {
            throw new IllegalStateException("started already");
        }
        List<String> line = commandLine();
        if (classArchives != null) {
            classArchive = classArchives.use("local-runtime", javaExecutable(), MAIN_CLASS, classPath);
            line.addAll(1, classArchive.flags());
        }
        ProcessBuilder pb = new ProcessBuilder(line).directory(root.toFile()).redirectErrorStream(true);
        if (log != null) {
            pb.redirectOutput(log.toFile());
        }
        pb.environment().keySet().removeAll(unset);
        pb.environment().putAll(environment);
        process = pb.start();
        if (log == null) {
            reader = Thread.ofPlatform().daemon().name("local-runtime-output").start(this::readOutput);
        }
        try {
            listeningPort =
                    Integer.parseInt(awaitOutput(LISTENING, listeningWithin).group(1));
            if (readyWithin != null) {
                awaitOutput(READY, readyWithin);
            }
            return this;
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop();
            throw e;
        }
    }

    private void readOutput() {
        try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (echo != null) {
                    echo.println(echoPrefix + line);
                }
                output.append(line).append('\n');
            }
        } catch (IOException e) {
            // the runtime is gone
        }
    }

    /** The first match of {@code pattern} in what the runtime printed, waiting for it while the runtime lives. */
    public Matcher awaitOutput(Pattern pattern, Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            Matcher m = pattern.matcher(output());
            if (m.find()) {
                return m;
            }
            if (!process.isAlive()) {
                if (reader != null) {
                    reader.join(Duration.ofSeconds(5)); // the lines it printed last
                }
                m = pattern.matcher(output());
                if (m.find()) {
                    return m;
                }
                throw new IllegalStateException("the local runtime exited before printing " + pattern + " (exit status "
                        + process.exitValue() + ")" + where());
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(
                        "the local runtime printed no " + pattern + " within " + timeout + where());
            }
            Thread.sleep(POLL);
        }
    }

    private String where() {
        return log != null ? "; log: " + log : "; its output:\n" + output;
    }

    /** The local API's address, e.g. {@code http://127.0.0.1:41234}. */
    public URI api() {
        return URI.create("http://127.0.0.1:" + listeningPort);
    }

    /** The port the local API listens on. */
    public int port() {
        return listeningPort;
    }

    /** The runtime's process (the run command's, with {@link #runCommand}): its descendants are the functions'. */
    public Process process() {
        return process;
    }

    /** The log file, or null when the output is kept in memory. */
    public Path log() {
        return log;
    }

    /** Everything the runtime and its functions printed so far. */
    public String output() {
        if (log == null) {
            return output.toString();
        }
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Stops the runtime: TERM, then KILL if it has not ended within the grace period. True when it ended on the TERM
     * (or had ended already, or never started).
     */
    public boolean stop() {
        ClassArchives.Training training = classArchive.training();
        classArchive = ClassArchives.Use.NONE;
        boolean running = process != null && process.isAlive();
        boolean ended = endOnTerm();
        if (training != null) {
            // only a JVM that ended on this TERM surely wrote its whole archive; one that died before wrote none
            if (running && ended) {
                training.ended();
            } else {
                training.abandoned();
            }
        }
        return ended;
    }

    private boolean endOnTerm() {
        if (process == null || !process.isAlive()) {
            return true;
        }
        process.destroy();
        try {
            if (process.waitFor(stopWithin.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
        return false;
    }

    @Override
    public void close() {
        stop();
    }
}
