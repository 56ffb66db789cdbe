package dev.pastebin.benchmarks.scale;

import java.util.Arrays;

/** Values recorded from many threads; percentiles at the end. */
final class Samples {

    private long[] values = new long[1024];
    private int size;

    synchronized void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    synchronized int count() {
        return size;
    }

    /** The {@code p}-th percentile (0-100) by nearest rank; 0 when empty. */
    synchronized long percentile(double p) {
        if (size == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * size);
        return sorted[Math.max(0, Math.min(size - 1, rank - 1))];
    }

    synchronized double mean() {
        return size == 0 ? 0 : Arrays.stream(values, 0, size).average().orElse(0);
    }

    synchronized long max() {
        return size == 0 ? 0 : Arrays.stream(values, 0, size).max().orElse(0);
    }
}
