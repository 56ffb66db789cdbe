package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** When a row counts as stuck, derived from the queues' retention, and the defaults against infra/template.yaml. */
class SweeperPropertiesTest {

    @Test
    void aRowIsStuckOnceTheLastRequeuedJobHasLeftTheUploadQueue() {
        try (ApplicationContext context = ApplicationContext.run()) {
            SweeperProperties properties = context.getBean(SweeperProperties.class);

            assertEquals(
                    Duration.ofDays(14), properties.requeueWindow(), "as long as the dead-letter queue keeps a job");
            assertEquals(
                    Duration.ofDays(18).plusHours(1),
                    properties.stuckAfter(),
                    "the requeue window, then the upload queue's retention, then the slack");
        }
    }

    @Test
    void theDefaultsAreTheTemplatesRetentionPeriods() throws IOException {
        try (ApplicationContext context = ApplicationContext.run()) {
            SweeperProperties properties = context.getBean(SweeperProperties.class);

            assertEquals(templateRetention("UploadQueue"), properties.uploadQueueRetention());
            assertEquals(templateRetention("UploadDeadLetterQueue"), properties.deadLetterRetention());
        }
    }

    @Test
    void theRetentionsBindInTheFormTheTemplatePassesThem() {
        try (ApplicationContext context = ApplicationContext.run(Map.of(
                "pastebin.sweeper.upload-queue-retention", "60s",
                "pastebin.sweeper.dead-letter-retention", "120s"))) {
            SweeperProperties properties = context.getBean(SweeperProperties.class);

            assertEquals(Duration.ofMinutes(3).plus(SweeperProperties.DELIVERY_SLACK), properties.stuckAfter());
        }
    }

    /** The {@code MessageRetentionPeriod} of queue {@code logicalId} in infra/template.yaml. */
    private static Duration templateRetention(String logicalId) throws IOException {
        String template = Files.readString(Path.of("..", "infra", "template.yaml"));
        Matcher resource = Pattern.compile("(?m)^  " + logicalId + ":$").matcher(template);
        assertTrue(resource.find(), "infra/template.yaml declares " + logicalId);
        Matcher next = Pattern.compile("(?m)^  \\S").matcher(template);
        String properties =
                template.substring(resource.end(), next.find(resource.end()) ? next.start() : template.length());
        Matcher retention = Pattern.compile("MessageRetentionPeriod:\\s*(\\d+)").matcher(properties);
        assertTrue(retention.find(), logicalId + " has a MessageRetentionPeriod");
        return Duration.ofSeconds(Long.parseLong(retention.group(1)));
    }
}
