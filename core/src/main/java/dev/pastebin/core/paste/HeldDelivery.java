package dev.pastebin.core.paste;

import io.micronaut.core.annotation.Introspected;
import java.time.Instant;

/**
 * A delivery of a paste's upload job that the breaker holds: the receipt handle of the message it made invisible,
 * and when that hold ends.
 */
@Introspected
public record HeldDelivery(String shortCode, String heldReceiptHandle, Instant heldUntil) {}
