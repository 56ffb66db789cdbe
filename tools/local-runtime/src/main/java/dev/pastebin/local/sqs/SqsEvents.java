package dev.pastebin.local.sqs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.local.Json;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/** The SQS event Lambda's event source mapping sends, and how it reads the partial batch response. */
final class SqsEvents {

    private SqsEvents() {}

    static ObjectNode event(List<Message> messages, String queueArn, String region) {
        ObjectNode event = Json.object();
        ArrayNode records = event.putArray("Records");
        for (Message m : messages) {
            ObjectNode r = records.addObject();
            r.put("messageId", m.messageId());
            r.put("receiptHandle", m.receiptHandle());
            r.put("body", m.body());
            ObjectNode attributes = r.putObject("attributes");
            m.attributesAsStrings().forEach(attributes::put);
            ObjectNode messageAttributes = r.putObject("messageAttributes");
            m.messageAttributes().forEach((name, value) -> messageAttributes.set(name, attribute(value)));
            r.put("md5OfBody", m.md5OfBody());
            if (m.md5OfMessageAttributes() != null) {
                r.put("md5OfMessageAttributes", m.md5OfMessageAttributes());
            }
            r.put("eventSource", "aws:sqs");
            r.put("eventSourceARN", queueArn);
            r.put("awsRegion", region);
        }
        return event;
    }

    private static ObjectNode attribute(MessageAttributeValue v) {
        ObjectNode a = Json.object();
        if (v.stringValue() != null) {
            a.put("stringValue", v.stringValue());
        }
        if (v.binaryValue() != null) {
            a.put(
                    "binaryValue",
                    Base64.getEncoder().encodeToString(v.binaryValue().asByteArray()));
        }
        ArrayNode strings = a.putArray("stringListValues");
        v.stringListValues().forEach(strings::add);
        ArrayNode binaries = a.putArray("binaryListValues");
        v.binaryListValues().forEach(b -> binaries.add(Base64.getEncoder().encodeToString(b.asByteArray())));
        a.put("dataType", v.dataType());
        return a;
    }

    /**
     * The message ids a successful invocation reported as failed. Empty when the whole batch succeeded (null or
     * empty response, or no failures listed); {@code Optional.empty()} when Lambda would treat the whole batch
     * as failed: a malformed response or an identifier that is blank or not in the batch.
     */
    static Optional<Set<String>> reportedFailures(byte[] payload, Set<String> batchIds) {
        if (payload.length == 0) {
            return Optional.of(Set.of());
        }
        JsonNode json = Json.parseOrNull(payload);
        if (json == null) {
            return Optional.empty();
        }
        if (json.isNull()) {
            return Optional.of(Set.of());
        }
        JsonNode failures = json.get("batchItemFailures");
        if (failures == null || failures.isNull()) {
            return Optional.of(Set.of());
        }
        if (!failures.isArray()) {
            return Optional.empty();
        }
        Set<String> ids = new HashSet<>();
        for (JsonNode f : failures) {
            String id = f.path("itemIdentifier").asText("");
            if (id.isBlank() || !batchIds.contains(id)) {
                return Optional.empty();
            }
            ids.add(id);
        }
        return Optional.of(ids);
    }
}
