package dev.pastebin.benchmarks.queues;

import dev.pastebin.testkit.LocalStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * The SQS behaviours the design relies on, observed on each queue engine the benchmarks can use (LocalStack, and
 * ElasticMQ started here), printed as a Markdown table of engine x behaviour with whether the engines agree: the
 * check that a faster engine measures the same system (docs/benchmarks.md, "Queue engine"). Each behaviour runs on
 * a fresh queue pair of its own (a queue whose visibility timeout is 2 s, with maxReceiveCount 2, and its dead-letter
 * queue), deleted afterwards. The table is the result: docs/benchmarks.md says which differences matter.
 *
 * <p>Usage: {@code QueueSemantics --repo . [--engines localstack,elasticmq] [--elasticmq-port 0]}; LocalStack at
 * {@code LOCALSTACK_ENDPOINT} (http://127.0.0.1:4566 unless set).
 */
public final class QueueSemantics {

    private static final int VISIBILITY_SECONDS = 2;
    private static final int MAX_RECEIVE_COUNT = 2;

    /** One behaviour: what the engine did, in words that are equal when two engines behave alike. */
    private record Behaviour(String name, Function<Queues, String> observe) {}

    /** A fresh queue pair on one engine. */
    private record Queues(SqsClient sqs, String url, String deadLetterUrl) {}

    private QueueSemantics() {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(".");
        List<String> engines = List.of("localstack", "elasticmq");
        int elasticMqPort = 0;
        for (int i = 0; i < args.length; i++) {
            String value = ++i < args.length ? args[i] : "";
            switch (args[i - 1]) {
                case "--repo" -> repo = Path.of(value);
                case "--engines" -> engines = List.of(value.split(","));
                case "--elasticmq-port" -> elasticMqPort = Integer.parseInt(value);
                default ->
                    throw new IllegalArgumentException("unknown option " + args[i - 1]
                            + "; usage: queue-semantics.sh [--engines localstack,elasticmq] [--elasticmq-port 0]");
            }
        }
        Map<String, Map<String, String>> observed = new LinkedHashMap<>();
        for (String engine : engines) {
            switch (engine) {
                case "localstack" ->
                    observed.put(
                            "LocalStack",
                            observe(System.getenv().getOrDefault("LOCALSTACK_ENDPOINT", "http://127.0.0.1:4566")));
                case "elasticmq" -> {
                    try (ElasticMq server = ElasticMq.start(
                            repo,
                            elasticMqPort,
                            repo.resolve("tools/benchmarks/harness/target/elasticmq-semantics.log"))) {
                        observed.put(
                                "ElasticMQ " + ElasticMq.VERSION,
                                observe(server.endpoint().toString()));
                    }
                }
                default -> throw new IllegalArgumentException("--engines: localstack and/or elasticmq");
            }
        }
        print(observed);
    }

    private static Map<String, String> observe(String endpoint) {
        Map<String, String> results = new LinkedHashMap<>();
        try (SqsClient sqs = LocalStack.configure(SqsClient.builder(), endpoint)
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            String run = Long.toString(System.nanoTime() % 1_000_000_000L, 36);
            int n = 0;
            for (Behaviour behaviour : behaviours()) {
                String prefix = "semantics-" + run + "-" + n++;
                String deadLetterUrl =
                        sqs.createQueue(b -> b.queueName(prefix + "-dlq")).queueUrl();
                String url = null;
                try {
                    String dlqArn = sqs.getQueueAttributes(
                                    b -> b.queueUrl(deadLetterUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                            .attributes()
                            .get(QueueAttributeName.QUEUE_ARN);
                    url = sqs.createQueue(b -> b.queueName(prefix)
                                    .attributes(Map.of(
                                            QueueAttributeName.VISIBILITY_TIMEOUT,
                                            Integer.toString(VISIBILITY_SECONDS),
                                            QueueAttributeName.REDRIVE_POLICY,
                                            "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":"
                                                    + MAX_RECEIVE_COUNT + "}")))
                            .queueUrl();
                    String result;
                    try {
                        result = behaviour.observe().apply(new Queues(sqs, url, deadLetterUrl));
                    } catch (SdkException e) {
                        result = "error: " + errorCode(e);
                    }
                    results.put(behaviour.name(), result);
                    System.err.printf("queue-semantics: %s: %s: %s%n", endpoint, behaviour.name(), result);
                } finally {
                    if (url != null) {
                        String created = url;
                        sqs.deleteQueue(b -> b.queueUrl(created));
                    }
                    sqs.deleteQueue(b -> b.queueUrl(deadLetterUrl));
                }
            }
        }
        return results;
    }

    private static List<Behaviour> behaviours() {
        List<Behaviour> list = new ArrayList<>();
        list.add(new Behaviour("the template's upload queue attributes (CreateQueue, read back)", q -> {
            Map<QueueAttributeName, String> template = Map.of(
                    QueueAttributeName.VISIBILITY_TIMEOUT, "360",
                    QueueAttributeName.MESSAGE_RETENTION_PERIOD, "345600",
                    QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1048576",
                    QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS, "20",
                    QueueAttributeName.DELAY_SECONDS, "0");
            String name = q.url().substring(q.url().lastIndexOf('/') + 1) + "-template";
            String url = q.sqs()
                    .createQueue(b -> b.queueName(name).attributes(template))
                    .queueUrl();
            try {
                var read = q.sqs()
                        .getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.ALL))
                        .attributes();
                List<String> differing = new ArrayList<>();
                template.forEach((k, v) -> {
                    if (!v.equals(read.get(k))) {
                        differing.add(k + "=" + read.get(k));
                    }
                });
                return differing.isEmpty() ? "kept" : "differs: " + String.join(", ", differing);
            } finally {
                q.sqs().deleteQueue(b -> b.queueUrl(url));
            }
        }));
        list.add(new Behaviour("a 300 KiB message (over SQS's former 256 KiB limit; jobs carry up to 1 MiB)", q -> {
            String body = "x".repeat(300 * 1024);
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody(body));
            Message m = receive(q.sqs(), q.url(), 5).orElseThrow();
            return m.body().equals(body) ? "accepted, received whole" : "accepted, received altered";
        }));
        list.add(new Behaviour("MessageGroupId on a standard queue (SendMessage), received back", q -> {
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("grouped").messageGroupId("client-1"));
            Message m = receive(q.sqs(), q.url(), 5).orElseThrow();
            return "accepted; MessageGroupId=" + systemAttribute(m, MessageSystemAttributeName.MESSAGE_GROUP_ID);
        }));
        list.add(new Behaviour("SendMessageBatch with a MessageGroupId per entry", q -> {
            var response = q.sqs()
                    .sendMessageBatch(b -> b.queueUrl(q.url())
                            .entries(
                                    SendMessageBatchRequestEntry.builder()
                                            .id("a")
                                            .messageBody("a")
                                            .messageGroupId("g-a")
                                            .build(),
                                    SendMessageBatchRequestEntry.builder()
                                            .id("b")
                                            .messageBody("b")
                                            .messageGroupId("g-b")
                                            .build()));
            List<String> groups = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                receive(q.sqs(), q.url(), 5)
                        .ifPresent(m -> groups.add(
                                m.body() + ":" + systemAttribute(m, MessageSystemAttributeName.MESSAGE_GROUP_ID)));
            }
            groups.sort(null);
            return response.successful().size() + " sent, " + response.failed().size() + " failed; received " + groups;
        }));
        list.add(new Behaviour("message attributes String and Number", q -> {
            q.sqs()
                    .sendMessage(b -> b.queueUrl(q.url())
                            .messageBody("attributed")
                            .messageAttributes(Map.of(
                                    "kind",
                                    MessageAttributeValue.builder()
                                            .dataType("String")
                                            .stringValue("upload")
                                            .build(),
                                    "size",
                                    MessageAttributeValue.builder()
                                            .dataType("Number")
                                            .stringValue("42")
                                            .build())));
            Message m = receive(q.sqs(), q.url(), 5).orElseThrow();
            var kind = m.messageAttributes().get("kind");
            var size = m.messageAttributes().get("size");
            return "kind=" + (kind == null ? "-" : kind.dataType() + ":" + kind.stringValue()) + ", size="
                    + (size == null ? "-" : size.dataType() + ":" + size.stringValue())
                    + (m.md5OfMessageAttributes() == null ? ", no MD5" : ", MD5 given");
        }));
        list.add(new Behaviour("system attributes on the first receive", q -> {
            long before = System.currentTimeMillis();
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("first"));
            long after = System.currentTimeMillis();
            Message m = receive(q.sqs(), q.url(), 5).orElseThrow();
            String sent = systemAttribute(m, MessageSystemAttributeName.SENT_TIMESTAMP);
            String firstReceive = systemAttribute(m, MessageSystemAttributeName.APPROXIMATE_FIRST_RECEIVE_TIMESTAMP);
            // SQS's timestamps are whole milliseconds of the server's clock, the same machine's here: 1 s of slack.
            boolean sentInRange =
                    sent != null && Long.parseLong(sent) >= before - 1000 && Long.parseLong(sent) <= after + 1000;
            return "ApproximateReceiveCount="
                    + systemAttribute(m, MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)
                    + ", SentTimestamp " + (sentInRange ? "at the send" : "= " + sent)
                    + ", ApproximateFirstReceiveTimestamp " + (firstReceive == null ? "missing" : "given");
        }));
        list.add(new Behaviour("visibility timeout runs out (queue's 2 s): redelivered, count 2", q -> {
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("expiring"));
            Message unused = receive(q.sqs(), q.url(), 5).orElseThrow();
            long received = System.nanoTime();
            return hiddenFor(q, received, VISIBILITY_SECONDS);
        }));
        list.add(new Behaviour("ChangeMessageVisibility to 0: redelivered at once", q -> {
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("released"));
            Message m = receive(q.sqs(), q.url(), 5).orElseThrow();
            q.sqs()
                    .changeMessageVisibility(b ->
                            b.queueUrl(q.url()).receiptHandle(m.receiptHandle()).visibilityTimeout(0));
            long changed = System.nanoTime();
            return hiddenFor(q, changed, 0);
        }));
        list.add(new Behaviour("ChangeMessageVisibility to 4 s: hidden that long", q -> {
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("held"));
            Message m = receive(q.sqs(), q.url(), 5).orElseThrow();
            q.sqs()
                    .changeMessageVisibility(b ->
                            b.queueUrl(q.url()).receiptHandle(m.receiptHandle()).visibilityTimeout(4));
            long changed = System.nanoTime();
            return hiddenFor(q, changed, 4);
        }));
        list.add(new Behaviour("ChangeMessageVisibilityBatch with one invalid receipt handle", q -> {
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("batch-held"));
            Message m = receive(q.sqs(), q.url(), 5).orElseThrow();
            var response = q.sqs()
                    .changeMessageVisibilityBatch(b -> b.queueUrl(q.url())
                            .entries(
                                    ChangeMessageVisibilityBatchRequestEntry.builder()
                                            .id("good")
                                            .receiptHandle(m.receiptHandle())
                                            .visibilityTimeout(0)
                                            .build(),
                                    ChangeMessageVisibilityBatchRequestEntry.builder()
                                            .id("bad")
                                            .receiptHandle("not-a-receipt-handle")
                                            .visibilityTimeout(0)
                                            .build()));
            return "succeeded "
                    + response.successful().stream().map(e -> e.id()).toList() + ", failed "
                    + response.failed().stream()
                            .map(e -> failure(e.id(), e.code(), e.senderFault()))
                            .toList()
                    + "; the good one "
                    + (receive(q.sqs(), q.url(), 1).isPresent() ? "redelivered" : "not redelivered");
        }));
        list.add(new Behaviour("DeleteMessageBatch with one invalid receipt handle (partial batch)", q -> {
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("deleted"));
            Message m = receive(q.sqs(), q.url(), 5).orElseThrow();
            var response = q.sqs()
                    .deleteMessageBatch(b -> b.queueUrl(q.url())
                            .entries(
                                    DeleteMessageBatchRequestEntry.builder()
                                            .id("good")
                                            .receiptHandle(m.receiptHandle())
                                            .build(),
                                    DeleteMessageBatchRequestEntry.builder()
                                            .id("bad")
                                            .receiptHandle("not-a-receipt-handle")
                                            .build()));
            // past the queue's visibility timeout: a deleted message never comes back
            boolean back = receive(q.sqs(), q.url(), VISIBILITY_SECONDS + 2).isPresent();
            return "succeeded "
                    + response.successful().stream().map(e -> e.id()).toList() + ", failed "
                    + response.failed().stream()
                            .map(e -> failure(e.id(), e.code(), e.senderFault()))
                            .toList()
                    + "; the deleted one " + (back ? "came back" : "gone");
        }));
        list.add(new Behaviour("redrive: moved to the DLQ after maxReceiveCount (2) receives", q -> {
            q.sqs()
                    .sendMessage(b -> b.queueUrl(q.url())
                            .messageBody("doomed")
                            .messageGroupId("client-9")
                            .messageAttributes(Map.of(
                                    "kind",
                                    MessageAttributeValue.builder()
                                            .dataType("String")
                                            .stringValue("upload")
                                            .build())));
            int receives = 0;
            for (int i = 0; i < MAX_RECEIVE_COUNT + 1; i++) {
                Optional<Message> m = receive(q.sqs(), q.url(), 3);
                if (m.isEmpty()) {
                    break;
                }
                receives++;
                q.sqs()
                        .changeMessageVisibility(b -> b.queueUrl(q.url())
                                .receiptHandle(m.get().receiptHandle())
                                .visibilityTimeout(0));
            }
            Optional<Message> dead = receive(q.sqs(), q.deadLetterUrl(), 5);
            return receives + " receives from the queue; in the DLQ: "
                    + dead.map(m -> m.body() + ", MessageGroupId="
                                    + systemAttribute(m, MessageSystemAttributeName.MESSAGE_GROUP_ID)
                                    + ", attribute kind "
                                    + (m.messageAttributes().containsKey("kind") ? "kept" : "lost"))
                            .orElse("nothing");
        }));
        list.add(new Behaviour("DelaySeconds 3 on SendMessage: hidden that long", q -> {
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("delayed").delaySeconds(3));
            long sent = System.nanoTime();
            return hiddenFor(q, sent, 3);
        }));
        list.add(new Behaviour("a long poll returns when a message arrives", q -> {
            CompletableFuture<Optional<Message>> poll =
                    CompletableFuture.supplyAsync(() -> receive(q.sqs(), q.url(), 10));
            sleep(Duration.ofSeconds(1));
            long sent = System.nanoTime();
            q.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("awaited"));
            Optional<Message> m = poll.join();
            double after = (System.nanoTime() - sent) / 1e9;
            return m.isEmpty()
                    ? "returned empty"
                    : after < 1.5 ? "returned on the arrival" : "returned %.1f s after the send".formatted(after);
        }));
        return list;
    }

    /**
     * Polls every 100 ms for the queue's message from {@code since}: "hidden ~N s" when it came back within
     * [N - 0.3, N + 1.3] seconds (LocalStack re-queues on a 1 s tick), else when it did come back, with its receive
     * count.
     */
    private static String hiddenFor(Queues q, long since, int seconds) {
        long limit = since + Duration.ofSeconds(seconds + 10).toNanos();
        while (System.nanoTime() < limit) {
            Optional<Message> m = receive(q.sqs(), q.url(), 0);
            if (m.isPresent()) {
                double after = (System.nanoTime() - since) / 1e9;
                String count = systemAttribute(m.get(), MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT);
                return (after >= seconds - 0.3 && after <= seconds + 1.3
                                ? "hidden ~" + seconds + " s"
                                : "back after %.1f s".formatted(after))
                        + ", then ApproximateReceiveCount=" + count;
            }
            sleep(Duration.ofMillis(100));
        }
        return "not back within " + (seconds + 10) + " s";
    }

    private static Optional<Message> receive(SqsClient sqs, String url, int waitSeconds) {
        return sqs
                .receiveMessage(b -> b.queueUrl(url)
                        .maxNumberOfMessages(1)
                        .waitTimeSeconds(waitSeconds)
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                        .messageAttributeNames("All"))
                .messages()
                .stream()
                .findFirst();
    }

    private static String systemAttribute(Message m, MessageSystemAttributeName name) {
        return m.attributes().get(name);
    }

    /** A failed batch entry; nothing in the system reads its code or SenderFault, shown for the record. */
    private static String failure(String id, String code, boolean senderFault) {
        return id + " (" + code + (senderFault ? ", SenderFault" : "") + ")";
    }

    private static String errorCode(SdkException e) {
        return e instanceof SqsException s && s.awsErrorDetails() != null
                ? s.awsErrorDetails().errorCode()
                : e.getClass().getSimpleName();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The table, with whether every engine observed the same. */
    private static void print(Map<String, Map<String, String>> observed) {
        List<String> engines = List.copyOf(observed.keySet());
        StringBuilder out = new StringBuilder("| behaviour |");
        engines.forEach(e -> out.append(' ').append(e).append(" |"));
        out.append(" same |\n|---|");
        engines.forEach(e -> out.append("---|"));
        out.append("---|\n");
        for (String behaviour : observed.get(engines.get(0)).keySet()) {
            out.append("| ").append(behaviour).append(" |");
            long distinct = engines.stream()
                    .map(e -> observed.get(e).get(behaviour))
                    .distinct()
                    .count();
            engines.forEach(
                    e -> out.append(' ').append(observed.get(e).get(behaviour)).append(" |"));
            out.append(distinct == 1 ? " yes |\n" : " **no** |\n");
        }
        System.out.print(out);
    }
}
