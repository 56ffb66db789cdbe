package dev.pastebin.report;

import dev.pastebin.core.moderation.ModerationOutbox;
import dev.pastebin.core.moderation.OutboxMessage;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.time.Instant;

/**
 * Asks the operator to look at a reported paste: one {@code notify} message on the moderation outbox, which the
 * moderation outbox function publishes to the abuse topic. Only the reason and where to look travel: the reporter's
 * text and contact stay in the database.
 */
@Singleton
class NotificationRequests {

    private final ModerationOutbox outbox;

    NotificationRequests(ModerationOutbox outbox) {
        this.outbox = outbox;
    }

    /** @param pageUrl the paste's web page when the public host is known, else {@code null} */
    void requestFor(AbuseReport report, Instant at, @Nullable String pageUrl) {
        String code = report.shortCode();
        outbox.send(OutboxMessage.notify(
                "Pastebin: paste " + code + " reported (" + report.reason().wireName() + ")",
                "Paste " + code + " was reported at " + at + " for: "
                        + report.reason().wireName() + ".\n"
                        + (pageUrl == null ? "" : "Page: " + pageUrl + "\n")
                        + "Its reports are in the abuse_reports table (code = '" + code + "'). More reports of it "
                        + "within the hour are stored without another notice.\n"
                        + "To take it down: infra/admin --stack <stack name> takedown " + code + " --reason '...' "
                        + "(docs/operating.md, \"Abuse reports and takedowns\").",
                "report:" + code));
    }
}
