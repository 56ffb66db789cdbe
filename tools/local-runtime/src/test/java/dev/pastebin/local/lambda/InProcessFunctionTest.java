package dev.pastebin.local.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.pastebin.local.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class InProcessFunctionTest {

    private static final byte[] EVENT = """
            {"Records": [{"messageId": "m1", "body": "fail", "eventSource": "aws:sqs",
              "attributes": {"ApproximateReceiveCount": "2"},
              "messageAttributes": {"kind": {"stringValue": "x", "dataType": "String"}}}]}""".getBytes(StandardCharsets.UTF_8);

    @Test
    void theEventAndTheResponseGoThroughLambdasSerializers() throws Exception {
        var function = InProcessFunction.of(
                "F",
                (SQSEvent event, com.amazonaws.services.lambda.runtime.Context c) -> {
                    SQSEvent.SQSMessage m = event.getRecords().getFirst();
                    assertEquals("2", m.getAttributes().get("ApproximateReceiveCount"));
                    assertEquals("x", m.getMessageAttributes().get("kind").getStringValue());
                    return new SQSBatchResponse(List.of(new SQSBatchResponse.BatchItemFailure(m.getMessageId())));
                },
                SQSEvent.class,
                () -> null);
        InvocationResult r = function.invoke(EVENT, "test");
        assertFalse(r.failed(), r.payloadText());
        assertEquals(
                "m1",
                Json.MAPPER
                        .readTree(r.payload())
                        .at("/batchItemFailures/0/itemIdentifier")
                        .asText());
    }

    @Test
    void aThrownExceptionIsLambdasErrorDocument() throws Exception {
        var function = InProcessFunction.of(
                "F",
                (SQSEvent event, com.amazonaws.services.lambda.runtime.Context c) -> {
                    throw new IllegalStateException("boom");
                },
                SQSEvent.class,
                () -> null);
        InvocationResult r = function.invoke(EVENT, "test");
        assertTrue(r.failed());
        assertEquals("java.lang.IllegalStateException", r.errorType());
        assertEquals(
                "boom", Json.MAPPER.readTree(r.payload()).get("errorMessage").asText());
    }
}
