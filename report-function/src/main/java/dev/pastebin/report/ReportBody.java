package dev.pastebin.report;

/** A report request's body bytes as they arrived, none for an empty body ({@link ReportBodyBinder}). */
record ReportBody(byte[] bytes) {}
