package dev.pastebin.core.breaker;

import dev.pastebin.core.failure.DeclaresErrorClass;
import dev.pastebin.core.failure.ErrorClass;
import java.time.Instant;

/** The breaker is open (or a probe is in flight): S3 was not called. Come back at {@link #nextProbeAt()}. */
public class CircuitOpenException extends RuntimeException implements DeclaresErrorClass {

    private final transient Instant nextProbeAt;

    public CircuitOpenException(Instant nextProbeAt) {
        super("circuit open: S3 is not called before the next probe at " + nextProbeAt, null, false, false);
        this.nextProbeAt = nextProbeAt;
    }

    public Instant nextProbeAt() {
        return nextProbeAt;
    }

    /** Transient: S3 was not called, and may be once the breaker's probe succeeds. */
    @Override
    public ErrorClass errorClass() {
        return ErrorClass.CIRCUIT_OPEN;
    }
}
