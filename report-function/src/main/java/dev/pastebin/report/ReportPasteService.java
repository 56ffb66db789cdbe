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
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores an abuse report of a paste that readers can see (docs/design.md, "Abuse reports"), and asks the operator
 * to be notified at most once per paste per {@code pastebin.report.notify-interval}. A paste that is unknown,
 * FAILED, expired, deleted or taken down is answered exactly as a read answers it: 404 PASTE_NOT_FOUND, so a
 * report tells nobody which. The notification request is sent inside the report's transaction: if the outbox
 * cannot take it, nothing is stored and the reporter is told 503, and the claim of the hour is not spent.
 */
@Singleton
public class ReportPasteService {

    private static final Logger LOG = LoggerFactory.getLogger(ReportPasteService.class);

    private final PasteRepository pastes;
    private final ReportRepository reports;
    private final NotificationRequests notifications;
    private final TransactionOperations<Connection> transactions;
    private final DependencyCalls dependencies;
    private final ReportProperties properties;
    private final Metrics metrics;
    private final Clock clock = Clock.systemUTC();

    ReportPasteService(
            PasteRepository pastes,
            ReportRepository reports,
            NotificationRequests notifications,
            TransactionOperations<Connection> transactions,
            DependencyCalls dependencies,
            ReportProperties properties,
            Metrics metrics) {
        this.pastes = pastes;
        this.reports = reports;
        this.notifications = notifications;
        this.transactions = transactions;
        this.dependencies = dependencies;
        this.properties = properties;
        this.metrics = metrics;
    }

    /** What a report did: stored, and whether it asked for a notification. */
    public record Outcome(boolean notified) {}

    /**
     * @param pageUrl the paste's web page, for the notification, when the public host is known
     * @throws PasteNotFoundException         when readers cannot see the paste
     * @throws DependencyUnavailableException when the database or the outbox cannot be reached (nothing is stored)
     */
    public Outcome report(AbuseReport report, @Nullable String pageUrl) {
        Instant now = clock.instant();
        String code = report.shortCode();
        Paste paste = dependencies
                .call(DATABASE, () -> pastes.findById(code))
                .filter(p -> p.status() != PasteStatus.FAILED && !p.isExpiredAt(now))
                .orElseThrow(() -> new PasteNotFoundException("No paste " + code));
        boolean notified = dependencies.call(
                DATABASE,
                () -> transactions.executeWrite(status -> {
                    Connection connection = status.getConnection();
                    reports.insert(connection, report);
                    boolean claimed = reports.claimNotice(connection, code, properties.notifyInterval());
                    if (claimed) {
                        // before the commit: an outbox that refuses rolls the report and its claim back
                        dependencies.run(MODERATION_OUTBOX, () -> notifications.requestFor(report, now, pageUrl));
                    }
                    return claimed;
                }));
        metrics.put(Metric.ABUSE_REPORTS, 1);
        if (notified) {
            metrics.put(Metric.ABUSE_NOTIFICATIONS, 1);
        }
        LOG.info(
                "paste {} ({}) reported for {}{}",
                paste.shortCode(),
                paste.status(),
                report.reason().wireName(),
                notified ? "; operator notification requested" : "; notified within the interval already");
        return new Outcome(notified);
    }
}
