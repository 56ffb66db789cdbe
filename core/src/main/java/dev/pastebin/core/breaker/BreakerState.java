package dev.pastebin.core.breaker;

/** Closed: S3 is called. Open: nobody calls S3 until the next probe. Half-open: one probe is calling S3. */
public enum BreakerState {
    CLOSED,
    OPEN,
    HALF_OPEN
}
