package dev.pastebin.report;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Asks the operator to look at a reported paste: one {@code notify} message on the moderation outbox, which the
 * moderation function publishes to the abuse topic. Only the reason and where to look travel: the reporter's
 * text and contact stay in the database.
 */
@Singleton
class NotificationRequests {

    private final SqsClient sqs;
    private final ModerationOutboxProperties outbox;
    private final ObjectMapper objectMapper;

    NotificationRequests(SqsClient sqs, ModerationOutboxProperties outbox, ObjectMapper objectMapper) {
        this.sqs = sqs;
        this.outbox = outbox;
        this.objectMapper = objectMapper;
    }

    /** @param pageUrl the paste's web page when the public host is known, else {@code null} */
    void requestFor(AbuseReport report, Instant at, @Nullable String pageUrl) {
        String code = report.shortCode();
        NotifyMessage message = new NotifyMessage(
                NotifyMessage.KIND,
                "Pastebin: paste " + code + " reported (" + report.reason().wireName() + ")",
                "Paste " + code + " was reported at " + at + " for: "
                        + report.reason().wireName() + ".\n"
                        + (pageUrl == null ? "" : "Page: " + pageUrl + "\n")
                        + "Its reports are in the abuse_reports table (code = '" + code + "'). More reports of it "
                        + "within the hour are stored without another notice.\n"
                        + "To take it down: infra/admin takedown " + code + " --reason '...' "
                        + "(docs/operating.md, \"Abuse reports and takedowns\").",
                "report:" + code);
        String body;
        try {
            body = objectMapper.writeValueAsString(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sqs.sendMessage(b -> b.queueUrl(outbox.url()).messageBody(body));
    }
}
