package dev.pastebin.core.storage;

import java.time.Instant;

/** An object under the paste prefix as ListObjectsV2 returns it: its short code and when S3 last wrote it. */
public record ListedObject(String shortCode, Instant lastModified) {}
