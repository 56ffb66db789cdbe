package dev.pastebin.benchmarks.queues;

import dev.pastebin.testkit.LocalStack;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Where a benchmark's system finds SQS: LocalStack (the default, as {@code make run} and {@code make test} have it)
 * or an ElasticMQ started for the run ({@code --queue-engine elasticmq}; docs/benchmarks.md, "Queue engine"), which
 * answers faster. With ElasticMQ the run's queues are created there with the attributes infra/local/up gave them in
 * LocalStack from the template (visibility timeout, long polling, redrive policy, ...), and the functions and the
 * local runtime's pollers reach it through the SDK's own {@code AWS_ENDPOINT_URL_SQS}; S3 stays LocalStack's.
 */
public sealed interface QueueEngine extends AutoCloseable {

    /** The attributes copied from LocalStack's queue: those the template sets that change how the queue behaves. */
    List<QueueAttributeName> COPIED = List.of(
            QueueAttributeName.VISIBILITY_TIMEOUT,
            QueueAttributeName.MESSAGE_RETENTION_PERIOD,
            QueueAttributeName.MAXIMUM_MESSAGE_SIZE,
            QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS,
            QueueAttributeName.DELAY_SECONDS,
            QueueAttributeName.REDRIVE_POLICY);

    /** {@code localstack} or {@code elasticmq}, as the option spells it. */
    static String parse(String option) {
        return switch (option) {
            case "localstack", "elasticmq" -> option;
            default -> throw new IllegalArgumentException("--queue-engine is localstack or elasticmq");
        };
    }

    /** The engine named by {@code option} ({@link #parse}); ElasticMQ is started on {@code port} (0: a free one). */
    static QueueEngine start(String option, Path repo, int port, Path log, String localStack)
            throws IOException, InterruptedException {
        return option.equals("elasticmq")
                ? new ElasticMqEngine(ElasticMq.start(repo, port, log), localStack)
                : new LocalStackEngine(localStack);
    }

    /** What the table names. */
    String description();

    /** The SQS endpoint for clients of the run's queues. */
    String endpoint();

    /** True when the run's queues must be made by {@link #prepare} (after infra/local/up), not by LocalStack alone. */
    boolean ownQueues();

    /** Variables for the local runtime, which passes them on to the functions. */
    Map<String, String> environment();

    /**
     * Called once LocalStack has the run's queues (infra/local/up): makes them, with the same attributes, where the
     * system will use them. {@code names}: dead-letter queues before the queues that redrive to them.
     */
    void prepare(List<String> names);

    /** LocalStack's own SQS: nothing to start or copy. */
    record LocalStackEngine(String endpoint) implements QueueEngine {

        @Override
        public String description() {
            return "LocalStack";
        }

        @Override
        public boolean ownQueues() {
            return false;
        }

        @Override
        public Map<String, String> environment() {
            return Map.of();
        }

        @Override
        public void prepare(List<String> names) {}

        @Override
        public void close() {}
    }

    /** An ElasticMQ of the run's own. */
    record ElasticMqEngine(ElasticMq server, String localStack) implements QueueEngine {

        @Override
        public String description() {
            return "ElasticMQ " + ElasticMq.VERSION + " at " + server.endpoint();
        }

        @Override
        public String endpoint() {
            return server.endpoint().toString();
        }

        @Override
        public boolean ownQueues() {
            return true;
        }

        @Override
        public Map<String, String> environment() {
            return Map.of("AWS_ENDPOINT_URL_SQS", endpoint());
        }

        /** The RedrivePolicy is copied as it is: ElasticMQ's ARNs have LocalStack's region and account. */
        @Override
        public void prepare(List<String> names) {
            try (SqsClient from = LocalStack.configure(SqsClient.builder(), localStack)
                            .httpClient(UrlConnectionHttpClient.create())
                            .build();
                    SqsClient to = server.client()) {
                for (String name : names) {
                    String url = from.getQueueUrl(b -> b.queueName(name)).queueUrl();
                    Map<QueueAttributeName, String> attributes = new HashMap<>(
                            from.getQueueAttributes(b -> b.queueUrl(url).attributeNames(COPIED))
                                    .attributes());
                    attributes.keySet().retainAll(COPIED);
                    to.createQueue(b -> b.queueName(name).attributes(attributes));
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            server.close();
        }
    }
}
