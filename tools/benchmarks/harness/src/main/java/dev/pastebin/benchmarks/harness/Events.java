package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Sample events. The HTTP ones come from infra/events/ when the template's sample events are there (the
 * read event gets the seeded paste's code), else from this module's fixtures in the same shape
 * ({@code sam local generate-event apigateway http-api-proxy}). SQS events are always built here from real
 * {@code ReceiveMessage} results or seeded rows, so that every record refers to a row that exists.
 */
final class Events {

    private static final Pattern STATUS = Pattern.compile("\"statusCode\"\\s*:\\s*(\\d+)");
    private static final Pattern ITEM = Pattern.compile("\"itemIdentifier\"\\s*:\\s*\"([^\"]+)\"");

    final String createEvent;
    final String createSource;
    final String createBody;
    private final String readTemplate;
    final String readSource;
    final String scheduleEvent;
    final String scheduleSource;

    Events(Path infraEvents, byte[] defaultContent) throws IOException {
        Optional<Path> create = find(infraEvents, "create-paste-text", "create", "post");
        if (create.isPresent()) {
            createEvent = Files.readString(create.get());
            createSource = create.get().toString();
        } else {
            createEvent = fixture("create.json")
                    .replace("\"{{body}}\"", quote(new String(defaultContent, StandardCharsets.UTF_8)));
            createSource = "benchmarks fixture events/create.json (1 KiB text/plain body)";
        }
        Matcher body =
                Pattern.compile("\"body\"\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\")").matcher(createEvent);
        createBody = body.find() ? unquote(body.group(1)) : new String(defaultContent, StandardCharsets.UTF_8);
        Optional<Path> read = find(infraEvents, "read-paste", "read", "get");
        if (read.isPresent()) {
            readTemplate = Files.readString(read.get())
                    .replaceAll("\"shortCode\"\\s*:\\s*\"[^\"]*\"", "\"shortCode\": \"{{shortCode}}\"")
                    .replaceAll("/pastes/[^\"/?]+", "/pastes/{{shortCode}}");
            readSource = read.get().toString() + " (short code replaced by a seeded PROCESSED paste)";
        } else {
            readTemplate = fixture("read.json");
            readSource = "benchmarks fixture events/read.json";
        }
        Optional<Path> schedule = find(infraEvents, "sweeper-scheduled", "schedule", "sweep");
        scheduleEvent = schedule.isPresent() ? Files.readString(schedule.get()) : fixture("schedule.json");
        scheduleSource = schedule.map(Path::toString).orElse("benchmarks fixture events/schedule.json");
    }

    String read(String shortCode) {
        return readTemplate.replace("{{shortCode}}", shortCode);
    }

    static int statusCode(String response) {
        Matcher m = STATUS.matcher(response);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    static List<String> batchItemFailures(String response) {
        return ITEM.matcher(response).results().map(r -> r.group(1)).toList();
    }

    /** An SQS event as the event source mapping delivers it, for messages actually received from the queue. */
    static String sqsEvent(String queueArn, List<Message> messages) {
        StringBuilder sb = new StringBuilder("{\"Records\":[");
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (i > 0) {
                sb.append(',');
            }
            Map<String, String> attrs = new java.util.LinkedHashMap<>(m.attributesAsStrings());
            sqsRecord(sb, m.messageId(), m.receiptHandle(), m.body(), m.md5OfBody(), attrs, queueArn);
        }
        return sb.append("]}").toString();
    }

    /** A one-record SQS event for a seeded job (cold-start runs: the record is not on a queue). */
    static String sqsEvent(String queueArn, String messageId, String body) {
        long now = System.currentTimeMillis();
        StringBuilder sb = new StringBuilder("{\"Records\":[");
        sqsRecord(
                sb,
                messageId,
                "bench-receipt-" + messageId,
                body,
                "",
                Map.of(
                        "ApproximateReceiveCount",
                        "1",
                        "SentTimestamp",
                        Long.toString(now),
                        "SenderId",
                        "000000000000",
                        "ApproximateFirstReceiveTimestamp",
                        Long.toString(now)),
                queueArn);
        return sb.append("]}").toString();
    }

    private static void sqsRecord(
            StringBuilder sb,
            String id,
            String receipt,
            String body,
            String md5,
            Map<String, String> attrs,
            String queueArn) {
        sb.append("{\"messageId\":")
                .append(quote(id))
                .append(",\"receiptHandle\":")
                .append(quote(receipt))
                .append(",\"body\":")
                .append(quote(body))
                .append(",\"attributes\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : attrs.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append(quote(e.getKey())).append(':').append(quote(e.getValue()));
        }
        sb.append("},\"messageAttributes\":{},\"md5OfBody\":")
                .append(quote(md5 == null ? "" : md5))
                .append(",\"eventSource\":\"aws:sqs\",\"eventSourceARN\":")
                .append(quote(queueArn))
                .append(",\"awsRegion\":\"us-east-1\"}");
    }

    /** A JSON string literal, by the local runtime's mapper (Jackson). */
    static String quote(String s) {
        try {
            return Json.MAPPER.writeValueAsString(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String unquote(String quoted) {
        try {
            return Json.MAPPER.readValue(quoted, String.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<Path> find(Path dir, String... words) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> json =
                    s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
            for (String w : words) {
                for (Path p : json) {
                    String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
                    // Prefer the plain case (e.g. create-text.json over create-oversized.json) by taking the first
                    // match.
                    if (name.contains(w)
                            && !name.contains("error")
                            && !name.contains("invalid")
                            && !name.contains("large")) {
                        return Optional.of(p);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static String fixture(String name) {
        try (InputStream in = Events.class.getResourceAsStream("/events/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
