package dev.pastebin.infra.local;

import dev.pastebin.core.support.StagedFileNotifications;
import dev.pastebin.core.support.TestQueues;
import dev.pastebin.local.Json;
import dev.pastebin.local.template.CloudFormationTemplate;
import dev.pastebin.testkit.LocalRuntimeLauncher;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The LocalRuntime main in its own JVM with the flags `make run` gives it (the test kit's {@link LocalRuntimeLauncher}):
 * the real template and the real function artifacts, with a queue pair, a bucket and a secret of the reporters' key
 * of its own (so a test sees only what it caused).
 */
final class LocalRuntimeProcess implements AutoCloseable {

    private static final CloudFormationTemplate TEMPLATE =
            CloudFormationTemplate.load(TestSupport.repositoryRoot().resolve("infra/template.yaml"));

    /**
     * The upload queue's redrive after the receives the template gives it, and tells the upload function: a queue
     * that gave up sooner would move a job that S3's outage kept retrying to the dead-letter queue, where only the
     * sweeper's next run finds it.
     */
    private static final int UPLOAD_QUEUE_MAX_RECEIVE_COUNT = Integer.parseInt(
            String.valueOf(TEMPLATE.parameter("UploadQueueMaxReceiveCount").get("Default")));

    final TestQueues.Pair queue;
    /** The moderation outbox queue's URL: the runtime's ModerationOutboxFunction consumes it. */
    final String outboxQueueUrl;
    /** The abuse notification topic (LocalStack SNS) the outbox function publishes to. */
    final String abuseTopicArn;
    /** A queue subscribed to that topic (raw delivery): what the operator's address would receive. */
    final String notificationsQueueUrl;

    final String bucket;
    final int port;
    /** The secret the report function reads the reporters' HMAC key from (the template's ReportAddressKeySecret). */
    private final String addressKeySecret;

    private final LocalRuntimeLauncher runtime;

    private LocalRuntimeProcess(
            TestQueues.Pair queue, Abuse abuse, String bucket, String addressKeySecret, LocalRuntimeLauncher runtime) {
        this.queue = queue;
        this.outboxQueueUrl = abuse.outboxQueueUrl();
        this.abuseTopicArn = abuse.topicArn();
        this.notificationsQueueUrl = abuse.notificationsQueueUrl();
        this.bucket = bucket;
        this.addressKeySecret = addressKeySecret;
        this.port = runtime.port();
        this.runtime = runtime;
    }

    /** Starts it and waits until its HTTP API listens; {@code name} prefixes the queues and the bucket. */
    static LocalRuntimeProcess start(String name) throws Exception {
        return start(name, Map.of(), List.of());
    }

    /**
     * The runtime this test JVM's end-to-end classes share, as {@code make run} has it: the template's defaults, and
     * its bucket configured as the template's (staged files notify the upload queue, CORS lets a page PUT there).
     * The first class that asks starts it; it stops, and its queues, topic and secret are deleted, when the JVM
     * exits. A class that needs settings of its own, or counts what reaches the runtime's queues, starts its own.
     *
     * <p>Why: each runtime and the functions it starts cost some ten seconds of CPU, on a machine that runs the
     * end-to-end classes three at a time and is busy throughout; the classes that share one run one after another
     * in their JVM, and each proves its behaviour on pastes of its own.
     */
    static LocalRuntimeProcess shared() throws Exception {
        return Shared.runtime();
    }

    /** The holder of {@link #shared()}: started once, on first use, stopped by a shutdown hook. */
    private static final class Shared {

        private static LocalRuntimeProcess runtime;

        static synchronized LocalRuntimeProcess runtime() throws Exception {
            if (runtime == null) {
                // named by the JVM: three test JVMs each have one, and the env-vars file is named after it
                LocalRuntimeProcess started =
                        start("shared-" + ProcessHandle.current().pid());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(started), "shared-runtime-stop"));
                started.configureBucketAsTheTemplate();
                runtime = started;
            }
            return runtime;
        }

        private static void stop(LocalRuntimeProcess started) {
            try {
                started.close();
            } catch (Exception e) {
                System.err.println("[runtime] the shared runtime did not stop cleanly: " + e);
            }
        }
    }

    /**
     * As {@link #start(String)}, with environment overrides in the {@code --env-vars} file's shape
     * ({@code "Parameters"} for every function, a logical id for one: e.g. a wrong database password for one
     * function) over the defaults, and more flags (e.g. {@code --schedule-interval}).
     */
    static LocalRuntimeProcess start(String name, Map<String, Map<String, String>> environment, List<String> flags)
            throws Exception {
        return start(name, environment, flags, false);
    }

    /**
     * As {@link #start(String, Map, List)}, with every function that serves a route or a queue initialised at start
     * (as {@code make run} does), for a test that must not count an init among what it measures.
     */
    static LocalRuntimeProcess startWarm(String name, Map<String, Map<String, String>> environment, List<String> flags)
            throws Exception {
        return start(name, environment, flags, true);
    }

    /**
     * Unless {@code warm}, each function starts on its first use ({@code --lazy}): a test class uses two or three of
     * the functions {@code make run} warms (those behind a route or a queue), and each init it does not need is
     * seconds of CPU taken from the tests running beside it.
     */
    private static LocalRuntimeProcess start(
            String name, Map<String, Map<String, String>> environment, List<String> flags, boolean warm)
            throws Exception {
        TestSupport.migrate();
        TestQueues.Pair queue;
        Abuse abuse;
        String bucket = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        String addressKeySecret =
                name + "-report-key-" + UUID.randomUUID().toString().substring(0, 8);
        try (var context = ApplicationContext.run()) {
            queue = TestQueues.create(context.getBean(SqsClient.class), name, UPLOAD_QUEUE_MAX_RECEIVE_COUNT, 30);
            abuse = Abuse.create(context.getBean(SqsClient.class), context.getBean(SnsClient.class), name);
            context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
            // as infra/local/bootstrap.py creates it for make run: a key for this runtime's reports only
            context.getBean(SecretsManagerClient.class)
                    .createSecret(b -> b.name(addressKeySecret).secretString("local-key-of-" + addressKeySecret));
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path root = TestSupport.repositoryRoot();
        Path envVars = Files.writeString(root.resolve("infra/target/" + name + "-env-vars.json"), envVars(environment));
        LocalRuntimeLauncher runtime = LocalRuntimeLauncher.java(root, envVars)
                .port(port)
                .physicalNames(
                        TestSupport.queueName(queue.queueUrl()),
                        TestSupport.queueName(queue.deadLetterQueueUrl()),
                        bucket)
                .arguments(List.of(
                        "--physical-name",
                        "ModerationOutboxQueue=" + TestSupport.queueName(abuse.outboxQueueUrl())
                                + ",AbuseNotificationTopic=" + abuse.topicName()
                                + ",ReportAddressKeySecret=" + addressKeySecret))
                .arguments(warm ? List.of() : List.of("--lazy"))
                .arguments(flags)
                .echoTo(System.err, "[runtime] ")
                .listeningWithin(Duration.ofSeconds(180))
                .stopWithin(Duration.ofSeconds(30));
        try {
            runtime.start();
        } catch (Exception e) {
            deleteResources(queue, abuse, addressKeySecret);
            throw e;
        }
        return new LocalRuntimeProcess(queue, abuse, bucket, addressKeySecret, runtime);
    }

    /** The moderation outbox queue, the abuse topic and a queue subscribed to it, named for one runtime. */
    private record Abuse(String outboxQueueUrl, String topicName, String topicArn, String notificationsQueueUrl) {

        static Abuse create(SqsClient sqs, SnsClient sns, String name) {
            String suffix = UUID.randomUUID().toString().substring(0, 8);
            String outbox = sqs.createQueue(b -> b.queueName(name + "-outbox-" + suffix))
                    .queueUrl();
            String topicName = name + "-abuse-" + suffix;
            String topicArn = sns.createTopic(b -> b.name(topicName)).topicArn();
            String notifications = sqs.createQueue(b -> b.queueName(name + "-notices-" + suffix))
                    .queueUrl();
            String notificationsArn = sqs.getQueueAttributes(
                            b -> b.queueUrl(notifications).attributeNames(QueueAttributeName.QUEUE_ARN))
                    .attributes()
                    .get(QueueAttributeName.QUEUE_ARN);
            // SNS's envelope (Subject, Message) arrives as the queue message's body, as an e-mail shows both
            sns.subscribe(b -> b.topicArn(topicArn).protocol("sqs").endpoint(notificationsArn));
            return new Abuse(outbox, topicName, topicArn, notifications);
        }

        void delete(SqsClient sqs, SnsClient sns) {
            sqs.deleteQueue(b -> b.queueUrl(outboxQueueUrl));
            sqs.deleteQueue(b -> b.queueUrl(notificationsQueueUrl));
            sns.deleteTopic(b -> b.topicArn(topicArn));
        }
    }

    /** What infra/local/lib.sh's env_vars_json gives the functions, for the database the tests use. */
    private static String envVars(Map<String, Map<String, String>> overrides) throws IOException {
        Map<String, Map<String, String>> file = new HashMap<>(Map.of(
                "Parameters",
                new HashMap<>(Map.of(
                        "DATASOURCES_DEFAULT_URL",
                        env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin"),
                        "DATASOURCES_DEFAULT_USERNAME",
                        env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                        "DATASOURCES_DEFAULT_PASSWORD",
                        env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"),
                        "AWS_S3_PATH_STYLE_ACCESS_ENABLED",
                        "true",
                        // the local PostgreSQL has no TLS; the template requires verify-full
                        "PASTEBIN_DATABASE_TLS_REQUIRED",
                        "false",
                        "PASTEBIN_ABUSE_CONTACT",
                        "mailto:abuse@localhost"))));
        overrides.forEach((scope, variables) ->
                file.computeIfAbsent(scope, s -> new HashMap<>()).putAll(variables));
        return Json.MAPPER.writeValueAsString(file);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /** The maxReceiveCount of the upload queue's redrive policy, as SQS reports it. */
    int queueMaxReceiveCount() throws IOException {
        try (var context = ApplicationContext.run()) {
            String policy = context.getBean(SqsClient.class)
                    .getQueueAttributes(
                            b -> b.queueUrl(queue.queueUrl()).attributeNames(QueueAttributeName.REDRIVE_POLICY))
                    .attributes()
                    .get(QueueAttributeName.REDRIVE_POLICY);
            return Json.MAPPER.readTree(policy).get("maxReceiveCount").asInt();
        }
    }

    URI uri(String pathAndQuery) {
        return URI.create(baseUrl() + pathAndQuery);
    }

    /** The local API's base address, e.g. {@code http://127.0.0.1:41234}. */
    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /**
     * Runs the operator's command {@code infra/admin --local <args>} against this runtime's queues and bucket (the
     * moderation function through infra/local/invoke, as an operator runs it beside {@code make run}).
     */
    LocalInvokeIT.Run admin(String... args) throws IOException, InterruptedException {
        return admin(Map.of(), Duration.ofSeconds(120), args);
    }

    /**
     * As {@link #admin(String...)}, with more environment (e.g. the dead-letter queues' URLs for verify), failing
     * unless the command ends within {@code within}.
     */
    LocalInvokeIT.Run admin(Map<String, String> extraEnv, Duration within, String... args)
            throws IOException, InterruptedException {
        Map<String, String> env = new HashMap<>(TestSupport.physicalNames(queue, bucket));
        env.put("PASTEBIN_MODERATION_OUTBOX", TestSupport.queueName(outboxQueueUrl));
        env.putAll(extraEnv);
        List<String> command = new java.util.ArrayList<>(List.of("--local"));
        command.addAll(List.of(args));
        return LocalInvokeIT.run(env, within, "infra/admin", command.toArray(String[]::new));
    }

    /** Everything the runtime and its functions printed so far. */
    String output() {
        return runtime.output();
    }

    @Override
    public void close() throws Exception {
        boolean stopped = runtime.stop();
        deleteResources(queue, new Abuse(outboxQueueUrl, "", abuseTopicArn, notificationsQueueUrl), addressKeySecret);
        if (!stopped) {
            throw new IllegalStateException("the runtime did not stop on TERM within 30 s");
        }
    }

    /** The runtime's own queues, topic and secret. */
    private static void deleteResources(TestQueues.Pair queue, Abuse abuse, String addressKeySecret) {
        try (var context = ApplicationContext.run()) {
            TestQueues.delete(context.getBean(SqsClient.class), queue);
            abuse.delete(context.getBean(SqsClient.class), context.getBean(SnsClient.class));
            context.getBean(SecretsManagerClient.class)
                    .deleteSecret(b -> b.secretId(addressKeySecret).forceDeleteWithoutRecovery(true));
        }
    }

    /**
     * This runtime's bucket as the template's PasteBucket has it where a large paste needs it: staged files notify the
     * upload queue, and its CORS rules (read from the template) let the page PUT there.
     */
    @SuppressWarnings("unchecked")
    void configureBucketAsTheTemplate() {
        Map<String, Object> cors =
                (Map<String, Object>) TEMPLATE.properties("PasteBucket").get("CorsConfiguration");
        List<CORSRule> rules = ((List<Map<String, Object>>) cors.get("CorsRules"))
                .stream()
                        .map(rule -> CORSRule.builder()
                                .allowedOrigins((List<String>) rule.get("AllowedOrigins"))
                                .allowedMethods((List<String>) rule.get("AllowedMethods"))
                                .allowedHeaders((List<String>) rule.get("AllowedHeaders"))
                                .exposeHeaders((List<String>) rule.get("ExposedHeaders"))
                                .maxAgeSeconds(((Number) rule.get("MaxAge")).intValue())
                                .build())
                        .toList();
        try (S3Client s3 = S3Client.create();
                SqsClient sqs = SqsClient.create()) {
            StagedFileNotifications.toQueue(s3, sqs, bucket, queue.queueUrl());
            s3.putBucketCors(b -> b.bucket(bucket).corsConfiguration(c -> c.corsRules(rules)));
        }
    }
}
