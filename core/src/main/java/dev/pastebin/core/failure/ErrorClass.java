package dev.pastebin.core.failure;

/**
 * What went wrong, coarse enough to choose a reaction and a base delay, fine enough for a dashboard.
 * Each class is either always transient or always permanent ({@link #kind()}).
 */
public enum ErrorClass {
    /** S3 asked us to slow down: 503 SlowDown, 429, ThrottlingException. */
    THROTTLING(FailureKind.TRANSIENT),
    /** Any other 5xx. */
    SERVER_ERROR(FailureKind.TRANSIENT),
    /** An attempt or the whole call ran out of time, or a socket read timed out. */
    TIMEOUT(FailureKind.TRANSIENT),
    /**
     * Connection refused, reset, unknown host: the request never got a proper answer; or its bytes arrived
     * corrupted (S3's BadDigest after the content's hash was checked locally).
     */
    CONNECTION(FailureKind.TRANSIENT),
    /** The database could not be reached or gave no connection in time. */
    DATABASE(FailureKind.TRANSIENT),
    /** 403: our role may not write there. Retrying cannot fix a policy. */
    ACCESS_DENIED(FailureKind.PERMANENT),
    /** The bucket does not exist: a deployment error. */
    NO_SUCH_BUCKET(FailureKind.PERMANENT),
    /** A KMS key error (disabled, missing, no access): the bucket's encryption is misconfigured. */
    KMS_KEY(FailureKind.PERMANENT),
    /** The shared circuit breaker is open: S3 was not called (docs/design.md, "Circuit breaker"). */
    CIRCUIT_OPEN(FailureKind.TRANSIENT),
    /** Any other 4xx: the request itself is wrong. */
    INVALID_REQUEST(FailureKind.PERMANENT),
    /** The content does not match the SHA-256 the paste was created with. */
    INTEGRITY(FailureKind.PERMANENT),
    /** Not recognised: retried (it may pass) but logged at error level, since it may be a bug. */
    UNKNOWN(FailureKind.TRANSIENT);

    private final FailureKind kind;

    ErrorClass(FailureKind kind) {
        this.kind = kind;
    }

    public FailureKind kind() {
        return kind;
    }

    /** S3 says it is misconfigured for everyone, not for this request: opens the breaker at once. */
    public boolean misconfiguresStorage() {
        return this == ACCESS_DENIED || this == NO_SUCH_BUCKET || this == KMS_KEY;
    }

    /** S3 did not serve the request for reasons of its own or of the network: counted by the breaker. */
    public boolean meansStorageUnavailable() {
        return this == THROTTLING || this == SERVER_ERROR || this == TIMEOUT || this == CONNECTION;
    }
}
