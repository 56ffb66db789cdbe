package dev.pastebin.report;

import static dev.pastebin.core.failure.Dependency.DATABASE;
import static dev.pastebin.core.failure.Dependency.MODERATION_OUTBOX;

import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores an abuse report of a paste that readers can see (docs/design.md, "Abuse reports"), and asks the operator
 * to be notified within three bounds: at most once per paste per {@code pastebin.report.notify-interval}, at most
 * {@code pastebin.report.notify-per-reporter} times an hour for one reporter, and at most
 * {@code pastebin.report.notify-budget} times an hour in all. The first report past the hour's budget sends one
 * notice that it is spent; the first report of a later hour (within a day) sends the hour's digest, the count of
 * pastes stored past the budget. A paste that is unknown, FAILED, expired, deleted or taken down is answered
 * exactly as a read answers it: 404 PASTE_NOT_FOUND, so a report tells nobody which. Notification requests are
 * sent inside the report's transaction: if the outbox cannot take one, nothing is stored, no claim is spent, and
 * the reporter is told 503.
 */
@Singleton
public class ReportPasteService {

    private static final Logger LOG = LoggerFactory.getLogger(ReportPasteService.class);
    /** How far back a report looks for hours whose digest is still to be sent. */
    static final Duration DIGEST_WINDOW = Duration.ofDays(1);

    private final PasteRepository pastes;
    private final ReportRepository reports;
    private final NotificationRequests notifications;
    private final TransactionOperations<Connection> transactions;
    private final DependencyCalls dependencies;
    private final ReportProperties properties;
    private final NoticeHours hours;
    private final Metrics metrics;
    private final Clock clock = Clock.systemUTC();

    ReportPasteService(
            PasteRepository pastes,
            ReportRepository reports,
            NotificationRequests notifications,
            TransactionOperations<Connection> transactions,
            DependencyCalls dependencies,
            ReportProperties properties,
            NoticeHours hours,
            Metrics metrics) {
        this.pastes = pastes;
        this.reports = reports;
        this.notifications = notifications;
        this.transactions = transactions;
        this.dependencies = dependencies;
        this.properties = properties;
        this.hours = hours;
        this.metrics = metrics;
    }

    /**
     * What a report did: stored, with what it did about the operator, and how many operator messages it sent
     * (the paste's notification, the notice that the budget is spent, digests of earlier hours).
     */
    public record Outcome(ReportNotice notice, int notificationsSent) {

        public boolean notified() {
            return notice == ReportNotice.SENT;
        }
    }

    /**
     * @param pageUrl the paste's web page, for the notification, when the public host is known
     * @throws PasteNotFoundException         when readers cannot see the paste
     * @throws DependencyUnavailableException when the database or the outbox cannot be reached (nothing is stored)
     */
    public Outcome report(AbuseReport report, @Nullable String pageUrl) {
        Instant now = clock.instant();
        Instant hour = hours.current();
        String code = report.shortCode();
        Paste paste = dependencies
                .call(DATABASE, () -> pastes.findById(code))
                .filter(p -> p.status() != PasteStatus.FAILED && !p.isExpiredAt(now))
                .orElseThrow(() -> new PasteNotFoundException("No paste " + code));
        Outcome outcome = dependencies.call(
                DATABASE,
                () -> transactions.executeWrite(status -> {
                    Connection connection = status.getConnection();
                    List<Runnable> messages = new ArrayList<>();
                    ReportNotice notice = decide(connection, report, hour, now, pageUrl, messages);
                    reports.insert(connection, report, notice);
                    for (ReportRepository.OverrunHour overrun :
                            reports.claimDigests(connection, hour.minus(DIGEST_WINDOW), hour)) {
                        messages.add(() -> notifications.digest(overrun));
                    }
                    // before the commit: an outbox that refuses rolls the report and its claims back
                    for (Runnable message : messages) {
                        dependencies.run(MODERATION_OUTBOX, message);
                    }
                    return new Outcome(notice, messages.size());
                }));
        metrics.put(Metric.ABUSE_REPORTS, 1);
        if (outcome.notificationsSent() > 0) {
            metrics.put(Metric.ABUSE_NOTIFICATIONS, outcome.notificationsSent());
        }
        if (outcome.notice() == ReportNotice.REPORTER_CAP || outcome.notice() == ReportNotice.OVER_BUDGET) {
            metrics.put(
                    Metric.ABUSE_NOTICES_WITHHELD, 1, outcome.notice().name().toLowerCase(Locale.ROOT));
        }
        LOG.info(
                "paste {} ({}) reported for {}; notice: {}, operator messages requested: {}",
                paste.shortCode(),
                paste.status(),
                report.reason().wireName(),
                outcome.notice().wireName(),
                outcome.notificationsSent());
        return outcome;
    }

    /**
     * The paste's claim of the interval, then the reporter's of the hour, then the hour's budget. A reporter past
     * their cap gives the paste's claim back (to the savepoint), so that another reporter's report of it still
     * notifies; a report past the budget keeps the paste's claim, so that the digest counts pastes, not reports.
     */
    private ReportNotice decide(
            Connection connection,
            AbuseReport report,
            Instant hour,
            Instant now,
            @Nullable String pageUrl,
            List<Runnable> messages) {
        try {
            Savepoint beforeClaims = connection.setSavepoint();
            if (!reports.claimNotice(connection, report.shortCode(), properties.notifyInterval())) {
                return ReportNotice.REPEAT;
            }
            if (!reports.claimReporterNotice(connection, report.reporterHash(), hour, properties.notifyPerReporter())) {
                connection.rollback(beforeClaims);
                return ReportNotice.REPORTER_CAP;
            }
            ReportRepository.BudgetClaim budget = reports.claimBudget(connection, hour, properties.notifyBudget());
            if (budget.withinBudget()) {
                messages.add(() -> notifications.requestFor(report, now, pageUrl));
                return ReportNotice.SENT;
            }
            if (budget.firstPastBudget()) {
                messages.add(() -> notifications.budgetSpent(hour, budget.budget(), now));
            }
            return ReportNotice.OVER_BUDGET;
        } catch (SQLException e) {
            throw new DataAccessException("claiming the notices of a report of " + report.shortCode(), e);
        }
    }
}
