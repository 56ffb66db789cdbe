package dev.pastebin.read;

import io.micronaut.serde.annotation.Serdeable;

/** The JSON view of a PROCESSED paste ({@code Accept: application/json}): metadata and the content as a string. */
@Serdeable
public record PasteDocument(String shortCode, String status, int sizeBytes, String contentSha256, String createdAt,
                            String content) {
}
