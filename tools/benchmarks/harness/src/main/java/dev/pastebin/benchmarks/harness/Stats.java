package dev.pastebin.benchmarks.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Medians, ranges and nearest-rank percentiles of a sample. */
final class Stats {

    private final List<Double> sorted;

    Stats(List<Double> values) {
        sorted = new ArrayList<>(values);
        Collections.sort(sorted);
    }

    boolean isEmpty() {
        return sorted.isEmpty();
    }

    int count() {
        return sorted.size();
    }

    double median() {
        int n = sorted.size();
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    double min() {
        return sorted.isEmpty() ? Double.NaN : sorted.get(0);
    }

    double max() {
        return sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() - 1);
    }

    /** Nearest-rank percentile, p in (0, 100]. */
    double percentile(double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /** "median (min-max)" with the given number format, or "n/a". */
    String medRange(String fmt) {
        if (sorted.isEmpty()) {
            return "n/a";
        }
        return String.format(fmt, median()) + " (" + String.format(fmt, min()) + "-" + String.format(fmt, max()) + ")";
    }
}
