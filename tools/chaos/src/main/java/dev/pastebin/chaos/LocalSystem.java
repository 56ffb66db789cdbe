package dev.pastebin.chaos;

import dev.pastebin.faults.FaultProxy;
import dev.pastebin.faults.Service;
import dev.pastebin.local.template.CloudFormationTemplate;
import dev.pastebin.testkit.LocalRuntimeLauncher;
import dev.pastebin.testkit.LocalStack;
import dev.pastebin.testkit.RunDatabase;
import dev.pastebin.testkit.RunNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The system under test, started the way a developer starts it: the suite's own PostgreSQL cluster
 * (infra/local/postgres.sh), a fault proxy (module fault-proxy, in the suite's own JVM) in front of
 * LocalStack's S3 and one in front of its SQS, then the README's run command ({@code infra/local/run.sh})
 * with the functions' S3 and SQS endpoints set to the proxies (the SDK's own {@code AWS_ENDPOINT_URL_S3}/{@code AWS_ENDPOINT_URL_SQS}). Its queues, bucket and
 * database are named after the run, so runs never share state. It also breaks what the faults break.
 */
final class LocalSystem implements AutoCloseable {

    /** The settings of one run. {@code apiPort} 0 takes a free port. */
    record Settings(Path root, String runId, int apiPort, int databasePort, String localStackEndpoint) {

        /** The suite stops its PostgreSQL; never the one the rest of the project (and the tests) use. */
        static final int SHARED_DATABASE_PORT = 5432;

        Settings {
            if (databasePort == SHARED_DATABASE_PORT) {
                throw new IllegalArgumentException(
                        "the chaos suite stops and starts its PostgreSQL: give it a cluster of "
                                + "its own (PASTEBIN_CHAOS_DB_PORT, default 5433), not the shared one on "
                                + SHARED_DATABASE_PORT);
            }
        }

        /** The run's database, queues and bucket. */
        RunNames names() {
            return RunNames.of("chaos", runId);
        }

        RunDatabase database() {
            return new RunDatabase("127.0.0.1", databasePort, USER, PASSWORD, names().database())
                    .withParameters("connectTimeout=5&socketTimeout=30");
        }
    }

    /** The runtime's line for an invocation whose process died under it (the SIGKILLed batches). */
    private static final Pattern UPLOAD_EXIT_ERROR =
            Pattern.compile("(?m)^UploadPasteFunction\\s+SQS batch.*ERROR Runtime\\.ExitError");

    private static final String USER = "pastebin";
    private static final String PASSWORD = "pastebin";

    private final Settings settings;
    private final RunNames names;
    private final RunDatabase database;
    private final Path logs;
    private final Map<String, String> environment;
    private final String uploadHandler;
    private final boolean clusterStartedHere;
    private FaultProxy s3;
    private FaultProxy sqs;
    private LocalRuntimeLauncher run;
    private SqsClient sqsClient;
    private boolean removeResources;

    private LocalSystem(Settings settings, Path logs, CloudFormationTemplate template)
            throws IOException, InterruptedException {
        this.settings = settings;
        this.names = settings.names();
        this.database = settings.database();
        this.logs = logs;
        this.uploadHandler = String.valueOf(template.functionProperty("UploadPasteFunction", "Handler"));
        this.environment = new HashMap<>(names.environment());
        environment.put("PASTEBIN_DB_PORT", Integer.toString(settings.databasePort()));
        environment.put("LOCALSTACK_ENDPOINT", settings.localStackEndpoint());
        List<String> cluster = cluster();
        this.clusterStartedHere = cluster.isEmpty() || !cluster.get(2).startsWith("online");
    }

    static LocalSystem start(Settings settings, Path logs, CloudFormationTemplate template)
            throws IOException, InterruptedException {
        Files.createDirectories(logs);
        LocalSystem system = new LocalSystem(settings, logs, template);
        try {
            system.startAll();
            return system;
        } catch (IOException | InterruptedException | RuntimeException e) {
            system.close();
            throw e;
        }
    }

    private void startAll() throws IOException, InterruptedException {
        Processes.run(
                settings.root(),
                environment,
                logs.resolve("postgres.log"),
                Duration.ofMinutes(3),
                "infra/local/postgres.sh",
                "start");
        s3 = new FaultProxy(Service.S3, 0, URI.create(settings.localStackEndpoint()));
        sqs = new FaultProxy(Service.SQS, 0, URI.create(settings.localStackEndpoint()));

        // The run command's defaults: one create and one read environment (started eagerly, so no client waits
        // for a cold start), the upload function as many as its MaximumConcurrency.
        run = LocalRuntimeLauncher.runCommand(settings.root())
                .port(settings.apiPort())
                .environment(environment)
                .through(s3)
                .through(sqs)
                .logTo(logs.resolve("runtime.log"))
                .readyWithin(Duration.ofMinutes(5))
                .start();
        sqsClient = LocalStack.configure(SqsClient.builder(), settings.localStackEndpoint())
                .build();
    }

    URI api() {
        return run.api();
    }

    FaultProxy s3() {
        return s3;
    }

    FaultProxy sqs() {
        return sqs;
    }

    Path runtimeLog() {
        return logs.resolve("runtime.log");
    }

    /** A new connection each time: the database is stopped and started under the suite. */
    Connection database() throws SQLException {
        return database.connect();
    }

    void stopDatabase() throws IOException, InterruptedException {
        pgCtlCluster("stop", "-m", "fast");
    }

    void startDatabase() throws IOException, InterruptedException {
        pgCtlCluster("start");
    }

    private void pgCtlCluster(String... action) throws IOException, InterruptedException {
        List<String> cluster = cluster();
        if (cluster.isEmpty()) {
            throw new IllegalStateException("no PostgreSQL cluster on port " + settings.databasePort());
        }
        String[] command = new String[3 + action.length];
        command[0] = "pg_ctlcluster";
        command[1] = cluster.get(0);
        command[2] = cluster.get(1);
        System.arraycopy(action, 0, command, 3, action.length);
        Processes.run(settings.root(), Map.of(), logs.resolve("postgres.log"), Duration.ofMinutes(1), command);
    }

    /** [version, name, status] of the Debian cluster on the suite's port, or empty. */
    private List<String> cluster() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("pg_lsclusters", "--no-header")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out.lines()
                .map(l -> Arrays.asList(l.trim().split("\\s+")))
                .filter(f -> f.size() >= 4 && f.get(2).equals(Integer.toString(settings.databasePort())))
                .map(f -> List.of(f.get(0), f.get(1), f.get(3)))
                .findFirst()
                .orElse(List.of());
    }

    /** The upload function's processes: the run command's descendants started with its handler. */
    List<ProcessHandle> uploadProcesses() {
        return run.process()
                .descendants()
                .filter(p -> p.info()
                        .arguments()
                        .map(args -> Arrays.asList(args).contains(uploadHandler))
                        .orElse(false))
                .toList();
    }

    /** SIGKILLs every upload function process; returns how many there were. */
    int killUploadProcesses() {
        List<ProcessHandle> processes = uploadProcesses();
        processes.forEach(ProcessHandle::destroyForcibly);
        return processes.size();
    }

    /** Upload invocations so far that ended because their process died. */
    int uploadInvocationsEndedByExit() {
        try {
            return (int) UPLOAD_EXIT_ERROR
                    .matcher(Files.readString(runtimeLog(), StandardCharsets.UTF_8))
                    .results()
                    .count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Messages in the upload queue and in its dead-letter queue (visible, in flight and delayed). */
    int[] queueDepths() {
        return new int[] {depth(names.queue()), depth(names.deadLetterQueue())};
    }

    private int depth(String queue) {
        String url = sqsClient.getQueueUrl(b -> b.queueName(queue)).queueUrl();
        var attributes = sqsClient
                .getQueueAttributes(b -> b.queueUrl(url)
                        .attributeNames(
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                .attributes();
        return attributes.values().stream().mapToInt(Integer::parseInt).sum();
    }

    /** After a passing run close() removes the run's queues, bucket and database; a failing run's stay to be looked at. */
    void removeResourcesOnClose() {
        removeResources = true;
    }

    private void removeResources() {
        try (S3Client s3Client = LocalStack.configure(S3Client.builder(), settings.localStackEndpoint())
                .forcePathStyle(true)
                .build()) {
            names.removeFrom(sqsClient, s3Client);
            database.drop();
        } catch (RuntimeException | SQLException e) {
            System.err.println("[chaos] could not remove the run's queues, bucket or database: " + e);
        }
    }

    @Override
    public void close() {
        if (run != null) {
            run.stop(); // TERM: run.sh stops the runtime, whose shutdown hook stops the function processes
        }
        if (s3 != null) {
            s3.close();
        }
        if (sqs != null) {
            sqs.close();
        }
        if (sqsClient != null) {
            if (removeResources) {
                removeResources();
            }
            sqsClient.close();
        }
        if (clusterStartedHere) {
            try {
                pgCtlCluster("stop", "-m", "fast");
            } catch (IOException | InterruptedException | RuntimeException e) {
                System.err.println("[chaos] could not stop the suite's PostgreSQL cluster: " + e);
            }
        }
    }
}
