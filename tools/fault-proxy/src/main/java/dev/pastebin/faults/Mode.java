package dev.pastebin.faults;

import java.util.Locale;

/** The faults the control API ({@code POST /_faults?mode=...}) switches, named for a person at a shell. */
public enum Mode {
    /** Nothing injected. */
    OFF,
    /** Every request the service can fault answered with its server error (S3: 500 InternalError; SQS: 503 ServiceUnavailable). */
    OUTAGE,
    /** Every request the service can fault answered with its throttling error (S3: 503 SlowDown; SQS: 400 ThrottlingException). */
    THROTTLE,
    /** A share ({@code rate}) of the requests the service can fault answered with its server error. */
    FLAKY,
    /** Every request, of any kind, dropped without an answer: the service is unreachable. */
    DOWN;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode named {@code label} ("outage"), or an IllegalArgumentException naming them all. */
    public static Mode of(String label) {
        for (Mode mode : values()) {
            if (mode.label().equals(label)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("mode is one of off, outage, throttle, flaky, down; not '" + label + "'");
    }
}
