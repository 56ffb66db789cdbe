package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.pastebin.core.delivery.Delivery;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UploadMessageTest {

    private static SQSEvent.SQSMessage record(Map<String, String> attributes) {
        var record = new SQSEvent.SQSMessage();
        record.setMessageId("m-1");
        record.setReceiptHandle("r-1");
        record.setBody("{}");
        record.setAttributes(attributes);
        return record;
    }

    @Test
    void theDeliveryNumberIsTheApproximateReceiveCount() {
        assertEquals(
                new Delivery(3),
                UploadMessage.of(record(Map.of("ApproximateReceiveCount", "3", "SentTimestamp", "1")))
                        .delivery());
        var message = UploadMessage.of(record(Map.of("ApproximateReceiveCount", "1")));
        assertEquals("m-1", message.messageId());
        assertEquals("r-1", message.receiptHandle());
        assertEquals("{}", message.body());
    }

    @Test
    void aMissingOrGarbledCountIsTheFirstDeliveryNeverTheLast() {
        assertEquals(new Delivery(1), UploadMessage.of(record(null)).delivery());
        assertEquals(new Delivery(1), UploadMessage.of(record(Map.of())).delivery());
        assertEquals(
                new Delivery(1),
                UploadMessage.of(record(Map.of("ApproximateReceiveCount", "many")))
                        .delivery());
        assertEquals(
                new Delivery(1),
                UploadMessage.of(record(Map.of("ApproximateReceiveCount", "0"))).delivery());
    }

    @Test
    void onlyRetriesAndPoisonAreRedelivered() {
        for (Outcome redelivered : new Outcome[] {Outcome.TRANSIENT, Outcome.SLOW, Outcome.HELD, Outcome.POISON}) {
            assertTrue(redelivered.redeliver(), redelivered.label());
        }
        for (Outcome acknowledged :
                new Outcome[] {Outcome.SUCCESS, Outcome.PERMANENT, Outcome.GAVE_UP, Outcome.DUPLICATE, Outcome.OVERDUE
                }) {
            assertFalse(acknowledged.redeliver(), acknowledged.label());
        }
        assertEquals("slow", Outcome.SLOW.label());
        assertEquals("gave_up", Outcome.GAVE_UP.label());
    }
}
