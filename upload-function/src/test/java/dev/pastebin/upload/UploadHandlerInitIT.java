package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.delivery.DeliveryProperties;
import dev.pastebin.core.delivery.DeliveryQueueProperties;
import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The path Lambda takes: the no-arg constructor builds the function's own context from application.yml. */
@RealServices
class UploadHandlerInitIT {

    @Test
    void theLambdaConstructorWiresTheFunctionWithItsDefaults() throws Exception {
        try (var handler = new UploadHandler()) {
            var context = handler.getApplicationContext();
            assertTrue(context.getEnvironment().getActiveNames().contains("function"));
            DeliveryProperties delivery = context.getBean(DeliveryProperties.class);
            assertEquals(6, delivery.maxAttempts());
            assertEquals(
                    320,
                    context.getBean(DeliveryQueueProperties.class).maxReceiveCount(),
                    "room for a day of the breaker's holds (DeliveryBudget)");
            assertTrue(context.getBean(BreakerProperties.class).enabled());
            assertEquals(Duration.ofSeconds(4), delivery.baseDelayFor(ErrorClass.THROTTLING));
            UploadProperties upload = context.getBean(UploadProperties.class);
            assertEquals(4, upload.parallelism());
            assertEquals(1, upload.s3MaxAttempts());

            var empty = new SQSEvent();
            empty.setRecords(List.of());
            assertTrue(handler.handleRequest(empty, TestLambdaContext.withRemaining(Duration.ofSeconds(30)))
                    .getBatchItemFailures()
                    .isEmpty());
        }
    }

    /** Found by the chaos suite: an environment started while PostgreSQL was stopped failed its init. */
    @Test
    void aColdStartWhileTheDatabaseIsDownSucceeds() {
        String property = "datasources.default.url";
        String previous = System.getProperty(property);
        // Nothing listens on port 1: the pool cannot open a connection.
        System.setProperty(property, "jdbc:postgresql://127.0.0.1:1/pastebin");
        try (var handler = new UploadHandler()) {
            assertTrue(handler.getApplicationContext().isRunning());
        } finally {
            if (previous == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, previous);
            }
        }
    }
}
