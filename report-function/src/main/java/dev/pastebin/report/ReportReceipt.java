package dev.pastebin.report;

import io.micronaut.serde.annotation.Serdeable;

/**
 * The 202 answer to a report: {@code {"shortCode": "…", "status": "RECEIVED", "message": "…"}}. It never says
 * whether the operator was notified by this report or an earlier one.
 */
@Serdeable
public record ReportReceipt(String shortCode, String status, String message) {

    static ReportReceipt of(String shortCode) {
        return new ReportReceipt(
                shortCode, "RECEIVED", "Thank you. The report is stored and the operator will review the paste.");
    }
}
