package dev.pastebin.report;

import io.micronaut.core.annotation.Nullable;

/**
 * One report as it is stored: which paste, why, what the reporter said, and a keyed hash of their address; never
 * the paste's content.
 *
 * @param shortCode    the reported paste
 * @param reason       one of the fixed reasons
 * @param text         what the reporter wrote, or {@code null}
 * @param contact      how to reach the reporter, or {@code null}
 * @param reporterHash HMAC-SHA-256 (hex) of the reporter's address ({@link ReporterAddresses})
 */
public record AbuseReport(
        String shortCode,
        ReportReason reason,
        @Nullable String text,
        @Nullable String contact,
        String reporterHash) {}
