package dev.pastebin.report;

import io.micronaut.serde.annotation.Serdeable;

/**
 * A notification request on the moderation outbox: {@code {"kind":"notify","subject":"…","message":"…",
 * "reference":"report:<code>"}}. The moderation function publishes subject and message to the abuse topic;
 * the reference names what asked for it in its logs.
 */
@Serdeable
record NotifyMessage(String kind, String subject, String message, String reference) {

    static final String KIND = "notify";
}
