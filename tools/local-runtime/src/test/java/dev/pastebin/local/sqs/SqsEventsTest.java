package dev.pastebin.local.sqs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.local.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

class SqsEventsTest {

    @Test
    void buildsTheEventLambdaSendsInTheShapeSamGeneratesIt() throws Exception {
        Message m = Message.builder()
                .messageId("19dd0b57-b21e-4ac1-bd88-01bbb068cb78")
                .receiptHandle("MessageReceiptHandle")
                .body("{\"v\":1}")
                .md5OfBody("7b270e59b47ff90a553787216d55d91d")
                .attributesWithStrings(Map.of(
                        "ApproximateReceiveCount",
                        "1",
                        "SentTimestamp",
                        "1523232000000",
                        "SenderId",
                        "000000000000",
                        "ApproximateFirstReceiveTimestamp",
                        "1523232000001"))
                .messageAttributes(Map.of(
                        "kind",
                        MessageAttributeValue.builder()
                                .dataType("String")
                                .stringValue("upload")
                                .build()))
                .build();
        var expected = Json.MAPPER.readTree(Files.readString(Path.of("src/test/resources/fixture/sqs-event.json")));
        assertEquals(
                expected,
                SqsEvents.event(List.of(m), "arn:aws:sqs:us-east-1:000000000000:pastebin-uploads", "us-east-1"));
    }

    private static Optional<Set<String>> failures(String payload) {
        return SqsEvents.reportedFailures(payload.getBytes(StandardCharsets.UTF_8), Set.of("a", "b", "c"));
    }

    @Test
    void batchItemFailuresNameTheMessagesToKeep() {
        assertEquals(Optional.of(Set.of("b")), failures("{\"batchItemFailures\":[{\"itemIdentifier\":\"b\"}]}"));
        assertEquals(Optional.of(Set.of()), failures("{\"batchItemFailures\":[]}"));
        assertEquals(Optional.of(Set.of()), failures("{}"));
        assertEquals(Optional.of(Set.of()), failures("null"));
        assertEquals(Optional.of(Set.of()), failures(""));
    }

    @Test
    void anInvalidResponseFailsTheWholeBatch() {
        assertEquals(Optional.empty(), failures("{\"batchItemFailures\":[{\"itemIdentifier\":\"zzz\"}]}"));
        assertEquals(Optional.empty(), failures("{\"batchItemFailures\":[{\"itemIdentifier\":\"\"}]}"));
        assertEquals(Optional.empty(), failures("{\"batchItemFailures\":\"b\"}"));
        assertEquals(Optional.empty(), failures("not json"));
    }
}
