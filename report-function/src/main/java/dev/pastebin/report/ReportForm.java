package dev.pastebin.report;

import io.micronaut.core.annotation.Nullable;

/** What a report's body said, checked: a reason from the list, and optional text and contact within their limits. */
record ReportForm(
        ReportReason reason,
        @Nullable String text,
        @Nullable String contact) {}
