package dev.pastebin.core.delivery;

/**
 * One delivery of an upload job: SQS's {@code ApproximateReceiveCount} of its message, which the queue's redrive
 * ({@code maxReceiveCount}) bounds. Not an {@link S3Attempt}: a held delivery makes none, so a job can be on its
 * 30th delivery and its paste's 2nd S3 attempt.
 *
 * @param number 1 for the first delivery
 */
public record Delivery(int number) {

    /** The first delivery; also what a missing or garbled receive count is taken for. */
    public static final Delivery FIRST = new Delivery(1);

    public Delivery {
        if (number < 1) {
            throw new IllegalArgumentException("deliveries count from 1: " + number);
        }
    }

    @Override
    public String toString() {
        return Integer.toString(number);
    }
}
