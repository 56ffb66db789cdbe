package dev.pastebin.report;

/**
 * What a report did about the operator, as {@code abuse_reports.notice} stores it (docs/design.md, "Abuse
 * reports"). Only {@link #SENT} asks for the paste's notification.
 */
public enum ReportNotice {
    /** The report asked for its paste's notification. */
    SENT("sent"),
    /** The paste was notified within {@code pastebin.report.notify-interval}: stored only. */
    REPEAT("repeat"),
    /** Its reporter had used their {@code pastebin.report.notify-per-reporter} of the hour: stored only. */
    REPORTER_CAP("reporter-cap"),
    /** The hour's {@code pastebin.report.notify-budget} was spent: stored only, counted in the hour's digest. */
    OVER_BUDGET("over-budget");

    private final String wireName;

    ReportNotice(String wireName) {
        this.wireName = wireName;
    }

    /** The value of {@code abuse_reports.notice}. */
    public String wireName() {
        return wireName;
    }
}
