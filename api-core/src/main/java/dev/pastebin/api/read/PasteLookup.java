package dev.pastebin.api.read;

import dev.pastebin.core.paste.Paste;

/** What a short code leads to, decided from the row alone (no S3 call). */
public sealed interface PasteLookup {

    /** PROCESSED and not read-once: the content is in S3 and the row's hash identifies it. */
    record Readable(Paste paste) implements PasteLookup {}

    /** PROCESSED and read-once: only its metadata; the content comes from a reveal, once. */
    record ReadOnce(Paste paste) implements PasteLookup {}

    /** IN_PROGRESS: not stored yet; the client should come back later. */
    record Pending(Paste paste) implements PasteLookup {}

    /** Unknown, FAILED (a failed upload is gone for readers), or expired. */
    record Absent() implements PasteLookup {}
}
