package dev.pastebin.read;

import dev.pastebin.core.paste.Paste;

/** What a short code leads to, decided from the row alone (no S3 call). */
public sealed interface PasteLookup {

    /** PROCESSED: the content is in S3 and the row's hash identifies it. */
    record Readable(Paste paste) implements PasteLookup {
    }

    /** IN_PROGRESS: not stored yet; the client should come back after {@code retryAfterSeconds}. */
    record Pending(Paste paste, int retryAfterSeconds) implements PasteLookup {
    }

    /** Unknown, or FAILED (a failed upload is gone for readers). */
    record Absent() implements PasteLookup {
    }
}
