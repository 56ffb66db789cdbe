package dev.pastebin.upload;

/**
 * The upload's S3 call failed; {@link #attempt()} is which real S3 attempt of the paste it was (as counted on
 * its row), the number the attempt budget and the backoff go by. The cause is the SDK's exception.
 */
class S3AttemptFailedException extends RuntimeException {

    private final int attempt;

    S3AttemptFailedException(int attempt, RuntimeException cause) {
        super("S3 attempt " + attempt + " failed: " + cause.getMessage(), cause, false, false);
        this.attempt = attempt;
    }

    int attempt() {
        return attempt;
    }
}
