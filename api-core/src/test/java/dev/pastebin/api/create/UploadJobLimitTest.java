package dev.pastebin.api.create;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.PasteProperties;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.exceptions.BeanInstantiationException;
import io.micronaut.context.exceptions.ConfigurationException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UploadJobLimitTest {

    private static final String QUEUE = "http://127.0.0.1:4566/000000000000/q";

    @Test
    void theLargestLimitFitsAOneMebibyteQueue() {
        assertDoesNotThrow(() -> new UploadJobLimit(
                new PasteProperties(11, PasteProperties.MAX_CONTENT_BYTES_CAP),
                new UploadQueueProperties(QUEUE, 1_048_576)));
    }

    @Test
    void aLimitWhoseLargestJobJustFitsIsAccepted() {
        int queueSize = 393_216;
        int limit = 3 * (queueSize - 256) / 4;
        assertTrue(UploadJobCodec.maxEncodedSize(limit) <= queueSize);
        assertDoesNotThrow(
                () -> new UploadJobLimit(new PasteProperties(11, limit), new UploadQueueProperties(QUEUE, queueSize)));
        assertThrows(
                ConfigurationException.class,
                () -> new UploadJobLimit(
                        new PasteProperties(11, limit + 3), new UploadQueueProperties(QUEUE, queueSize)));
    }

    /** A configured limit above what the queue takes stops the function at start-up, not every large paste later. */
    @Test
    void theFunctionRefusesToStartWhenTheLargestJobWouldNotFitTheQueue() {
        var failure = assertThrows(
                BeanInstantiationException.class,
                () -> ApplicationContext.run(Map.of(
                        "datasources.default.url", "jdbc:postgresql://127.0.0.1:1/none",
                        "pastebin.upload-queue.maximum-message-size", 393_216,
                        "pastebin.paste.max-content-bytes", 400_000)));
        assertTrue(failure.getMessage().contains("MaximumMessageSize"), failure.getMessage());
    }
}
