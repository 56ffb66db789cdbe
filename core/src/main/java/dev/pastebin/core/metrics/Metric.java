package dev.pastebin.core.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * Every metric the functions emit, in namespace {@value Metrics#NAMESPACE} (docs/design.md, "Observability").
 * The one list of names, units and dimensions: the dashboard and alarms in infra/template.yaml are tested
 * against it. Each metric carries {@link Dimension#SERVICE} first, then its own dimensions; it is emitted
 * under every prefix of that list ({@code [Service]}, {@code [Service, Outcome]}, …), so a total and each
 * breakdown are plain metrics the dashboard and alarms can use without a search expression.
 */
public enum Metric {

    /** One per delivery of an upload job (not per S3 attempt); the transient-failure rate is the transient share of all. */
    UPLOAD_DELIVERIES("UploadDeliveries", Unit.COUNT, Dimension.OUTCOME, Dimension.ERROR_CLASS),
    /** The S3 attempt (1 = first try) that succeeded: its distribution is the success rate by attempt. */
    SUCCESS_ATTEMPT("SuccessAttempt", Unit.NONE),
    /** Attempt − 1 per success: its average is the leading indicator of a degrading S3. */
    RETRIES_PER_SUCCESS("RetriesPerSuccess", Unit.COUNT),
    /** The visibility timeout chosen for a transient failure. */
    BACKOFF_DELAY("BackoffDelay", Unit.SECONDS),
    /** From the row's creation to PROCESSED. */
    TIME_TO_SUCCESS("TimeToSuccess", Unit.MILLISECONDS),
    BREAKER_TRANSITIONS("BreakerTransitions", Unit.COUNT, Dimension.TO),
    /** How long the breaker was open, emitted when it closes. */
    BREAKER_OPEN_MINUTES("BreakerOpenMinutes", Unit.NONE),

    REQUESTS("Requests", Unit.COUNT, Dimension.STATUS_CODE),
    /** 503s, by the dependency that was down. */
    DEPENDENCY_UNAVAILABLE("DependencyUnavailable", Unit.COUNT, Dimension.DEPENDENCY),
    LATENCY("Latency", Unit.MILLISECONDS),

    DELETED("Deleted", Unit.COUNT),
    /** Pastes removed by the sweeper because they expired (any state). */
    EXPIRED_DELETED("ExpiredDeleted", Unit.COUNT),
    IDEMPOTENCY_KEYS_DELETED("IdempotencyKeysDeleted", Unit.COUNT),
    STUCK_MARKED_FAILED("StuckMarkedFailed", Unit.COUNT),
    OBJECTS_REMOVED("ObjectsRemoved", Unit.COUNT),
    /** S3 objects under the paste prefix that no row named, removed by the sweeper's reconciliation. */
    ORPHAN_OBJECTS_REMOVED("OrphanObjectsRemoved", Unit.COUNT),
    /** 1 when the reconciliation stopped because an implausible share of the objects had no row, else 0. */
    ORPHAN_GUARD_STOPS("OrphanGuardStops", Unit.COUNT),
    /**
     * 1 when the reconciliation refused to start because the database's sweep epoch is behind the bucket's marker
     * (the database went back in time), else 0: 1 every sweep until an operator acknowledges the restore.
     */
    DATABASE_RESTORED("DatabaseRestored", Unit.COUNT),
    DEAD_LETTERS_REQUEUED("DeadLettersRequeued", Unit.COUNT),
    DEAD_LETTERS_DELETED("DeadLettersDeleted", Unit.COUNT),
    DEAD_LETTERS_KEPT("DeadLettersKept", Unit.COUNT),
    /**
     * Seconds since the oldest IN_PROGRESS paste younger than a day was created (0 when none), measured by every
     * sweep: the one signal that pastes are not being stored, whatever stops the upload worker (it needs nothing
     * from it). Older rows are {@link #ORPHAN_IN_PROGRESS_PASTES}, so one of them cannot hold its alarm for days.
     */
    OLDEST_IN_PROGRESS_AGE("OldestInProgressAge", Unit.SECONDS),
    /** IN_PROGRESS pastes older than a day, measured by every sweep: rows no job is likely to finish. */
    ORPHAN_IN_PROGRESS_PASTES("OrphanInProgressPastes", Unit.COUNT),

    /** Abuse reports stored (POST /pastes/{code}/report). */
    ABUSE_REPORTS("AbuseReports", Unit.COUNT),
    /**
     * Operator messages reports requested: a paste's notification (at most one per paste per hour, at most
     * pastebin.report.notify-budget an hour), the notice that the hour's budget is spent, and digests of such hours.
     */
    ABUSE_NOTIFICATIONS("AbuseNotifications", Unit.COUNT),
    /**
     * Reports stored without the paste's notification they would have asked for, by why: {@code reporter_cap}
     * (the reporter's notifications of the hour were used) or {@code over_budget} (the hour's budget was spent).
     */
    ABUSE_NOTICES_WITHHELD("AbuseNoticesWithheld", Unit.COUNT, Dimension.OUTCOME),
    /** Pastes an operator took down. */
    TAKEDOWNS("Takedowns", Unit.COUNT),
    /** Creates refused because the content's SHA-256 is on the blocklist. */
    BLOCKED_CREATES("BlockedCreates", Unit.COUNT),
    /** Queued uploads the upload worker refused because the content's SHA-256 is on the blocklist. */
    BLOCKED_UPLOADS("BlockedUploads", Unit.COUNT),
    /** Abuse reports, report notices and hourly notice counters the sweeper deleted past their retention. */
    ABUSE_REPORTS_DELETED("AbuseReportsDeleted", Unit.COUNT);

    private final String metricName;
    private final Unit unit;

    @SuppressWarnings("ImmutableEnumChecker") // Stream.toList() is unmodifiable
    private final List<Dimension> dimensions;

    Metric(String metricName, Unit unit, Dimension... own) {
        this.metricName = metricName;
        this.unit = unit;
        this.dimensions =
                Stream.concat(Stream.of(Dimension.SERVICE), Arrays.stream(own)).toList();
    }

    /** The name in CloudWatch. */
    public String metricName() {
        return metricName;
    }

    public Unit unit() {
        return unit;
    }

    /** {@link Dimension#SERVICE} first, then the metric's own dimensions, in the order values are given. */
    public List<Dimension> dimensions() {
        return dimensions;
    }

    /** The dimension names each EMF line may carry. Values are bounded: enum labels and HTTP status codes. */
    public enum Dimension {
        /** create, read, remove, upload or sweeper. */
        SERVICE("Service"),
        /**
         * An upload outcome: success, transient, slow, held, overdue, permanent, gave_up, duplicate, removed, poison;
         * or why a report's notification was withheld: reporter_cap, over_budget.
         */
        OUTCOME("Outcome"),
        /** A failure class ({@code dev.pastebin.core.failure.ErrorClass}), {@code none} without a failure. */
        ERROR_CLASS("ErrorClass"),
        /** The breaker state moved to: OPEN, HALF_OPEN, CLOSED. */
        TO("To"),
        /** The HTTP status answered. */
        STATUS_CODE("StatusCode"),
        /** database, upload queue or storage ({@code dev.pastebin.core.failure.Dependency}). */
        DEPENDENCY("Dependency");

        private final String key;

        Dimension(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }
    }
}
