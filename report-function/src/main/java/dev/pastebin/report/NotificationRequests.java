package dev.pastebin.report;

import dev.pastebin.core.moderation.ModerationOutbox;
import dev.pastebin.core.moderation.OutboxMessage;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;

/**
 * Asks the operator to look at a reported paste: one {@code notify} message on the moderation outbox, which the
 * moderation outbox function publishes to the abuse topic. Only the reason and where to look travel: the reporter's
 * text and contact stay in the database. Past the hour's budget (pastebin.report.notify-budget) one notice says
 * so, and a digest later counts the pastes stored without a notice (docs/design.md, "Abuse reports").
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

    /** Sent by the first report past the budget of the hour that starts at {@code hour}. */
    void budgetSpent(Instant hour, int budget, Instant at) {
        Instant end = hour.plus(Duration.ofHours(1));
        outbox.send(OutboxMessage.notify(
                "Pastebin: " + budget + " report notifications this hour, the budget is spent",
                "At " + at + " the pastes reported in the hour from " + hour + " had asked for " + budget
                        + " notifications, the hourly budget (pastebin.report.notify-budget). Reports of further "
                        + "pastes until " + end + " are stored without a notice (abuse_reports.notice = "
                        + "'" + ReportNotice.OVER_BUDGET.wireName() + "'); the first report after that hour sends "
                        + "their count.\n"
                        + "To read them: SELECT code, reason, reported_at FROM abuse_reports WHERE notice = '"
                        + ReportNotice.OVER_BUDGET.wireName() + "' AND reported_at >= '" + hour
                        + "' ORDER BY reported_at;\n"
                        + "(docs/operating.md, \"Abuse reports and takedowns\").",
                "report-budget:" + hour));
    }

    /** The digest of an hour whose budget was spent: how many pastes were stored past it. */
    void digest(ReportRepository.OverrunHour overrun) {
        Instant hour = overrun.hour();
        Instant end = hour.plus(Duration.ofHours(1));
        outbox.send(OutboxMessage.notify(
                "Pastebin: " + overrun.pastes() + " more pastes were reported from " + hour,
                overrun.pastes() + " more pastes were reported in the hour from " + hour + " to " + end
                        + " after its " + overrun.budget() + " notifications; they were stored without a notice. "
                        + "See the abuse_reports table:\n"
                        + "SELECT code, reason, reported_at FROM abuse_reports WHERE notice = '"
                        + ReportNotice.OVER_BUDGET.wireName() + "' AND reported_at >= '" + hour
                        + "' AND reported_at < '" + end + "' ORDER BY reported_at;\n"
                        + "(docs/operating.md, \"Abuse reports and takedowns\").",
                "report-digest:" + hour));
    }
}
