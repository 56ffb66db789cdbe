package dev.pastebin.create;

import io.micronaut.serde.annotation.Serdeable;

/** The haste protocol's answer to {@code POST /documents}: {@code {"key": "<shortCode>"}}, all its clients read. */
@Serdeable
public record HasteKey(String key) {}
