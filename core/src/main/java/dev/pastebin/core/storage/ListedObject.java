package dev.pastebin.core.storage;

import java.time.Instant;

/**
 * An object as ListObjectsV2 returns it under one of the bucket's prefixes of paste content: its key, the short code
 * the key names (the paste prefix's {@code <code>}, a large paste's {@code <code>/<n>}) and when S3 last wrote it.
 */
public record ListedObject(String key, String shortCode, Instant lastModified) {}
