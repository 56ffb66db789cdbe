package dev.pastebin.core.breaker;

import java.time.Instant;

/** The breaker is open (or a probe is in flight): S3 was not called. Come back at {@link #nextProbeAt()}. */
public class CircuitOpenException extends RuntimeException {

    private final transient Instant nextProbeAt;

    public CircuitOpenException(Instant nextProbeAt) {
        super("circuit open: S3 is not called before the next probe at " + nextProbeAt, null, false, false);
        this.nextProbeAt = nextProbeAt;
    }

    public Instant nextProbeAt() {
        return nextProbeAt;
    }
}
