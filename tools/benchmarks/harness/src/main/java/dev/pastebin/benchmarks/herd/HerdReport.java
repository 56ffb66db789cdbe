package dev.pastebin.benchmarks.herd;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The figures of one herd run, from recovery on, in one-second buckets: S3 PUTs (the proxy's count, read about
 * once a second and interpolated to the second's edges), pastes PROCESSED, the run database's backends, the upload
 * invocations in flight and the uploads they run at once, the breaker's state. In flight is an average over the
 * second (the invocations' milliseconds in it, Little's law), since an invocation's line is seen up to a sample
 * late; each invocation runs at most {@code uploadParallelism} of its records at a time (the run's
 * {@code PASTEBIN_UPLOAD_PARALLELISM}: the template's, or the one the run's {@code --env-vars} give).
 */
record HerdReport(
        int pastes,
        Duration creating,
        Duration heldAfter,
        Duration outage,
        long putsDuringOutage,
        long recoveredAt,
        boolean drained,
        int readable,
        double lastProcessedSeconds,
        List<Long> healthyCreateMillis,
        List<Long> outageCreateMillis,
        int uploadParallelism,
        HerdRecorder recorder,
        RuntimeLogFigures log) {

    /** One second after recovery ({@code second} 0 is the first). */
    record Second(
            int second,
            long puts,
            int processed,
            int maxBackends,
            int maxActiveBackends,
            double invocations,
            double uploads,
            String breaker) {}

    List<Second> seconds() {
        long end = recorder.samples.getLast().at();
        int count = (int) Math.ceilDiv(end - recoveredAt, 1000);
        List<Second> seconds = new ArrayList<>();
        for (int s = -1; s < count; s++) {
            long from = recoveredAt + s * 1000L;
            long to = from + 1000;
            seconds.add(new Second(
                    s,
                    putsIn(from, to),
                    processedAt(to) - processedAt(from),
                    recorder.samples.stream()
                            .filter(x -> x.at() >= from && x.at() < to)
                            .mapToInt(HerdRecorder.Sample::backends)
                            .max()
                            .orElse(0),
                    recorder.samples.stream()
                            .filter(x -> x.at() >= from && x.at() < to)
                            .mapToInt(HerdRecorder.Sample::activeBackends)
                            .max()
                            .orElse(0),
                    inFlight(from, to, false),
                    inFlight(from, to, true),
                    stateAt(to)));
        }
        return seconds;
    }

    private long putsIn(long from, long to) {
        return cumulativePutsAt(to) - cumulativePutsAt(from);
    }

    /** The proxy's count at {@code at}, interpolated between the samples around it. */
    private long cumulativePutsAt(long at) {
        HerdRecorder.PutCount before = null;
        for (HerdRecorder.PutCount p : recorder.puts) {
            if (p.at() <= at) {
                before = p;
            } else {
                return before == null
                        ? 0
                        : Math.round(before.puts()
                                + (double) (p.puts() - before.puts()) * (at - before.at()) / (p.at() - before.at()));
            }
        }
        return before == null ? 0 : before.puts();
    }

    private int processedAt(long at) {
        int processed = 0;
        for (HerdRecorder.Sample s : recorder.samples) {
            if (s.at() <= at) {
                processed = s.processed();
            }
        }
        return processed;
    }

    private String stateAt(long at) {
        String state = "";
        for (HerdRecorder.Sample s : recorder.samples) {
            if (s.at() <= at) {
                state = s.breaker();
            }
        }
        return state;
    }

    /** The invocations (or uploads) in flight during [from, to), on average: their milliseconds in it over its length. */
    private double inFlight(long from, long to, boolean uploads) {
        double busy = 0;
        for (HerdRecorder.Invocation i : recorder.invocations) {
            long overlap = Math.min(to, i.end()) - Math.max(from, i.start());
            if (overlap > 0) {
                busy += overlap * (uploads ? Math.min(i.records(), uploadParallelism) : 1);
            }
        }
        return busy / (to - from);
    }

    void timeline(PrintWriter out) {
        out.println(
                "second,puts,processed,max_backends,max_active_backends,invocations_in_flight,uploads_in_flight,breaker");
        for (Second s : seconds()) {
            out.printf(
                    Locale.ROOT,
                    "%d,%d,%d,%d,%d,%.1f,%.1f,%s%n",
                    s.second(),
                    s.puts(),
                    s.processed(),
                    s.maxBackends(),
                    s.maxActiveBackends(),
                    s.invocations(),
                    s.uploads(),
                    s.breaker());
        }
    }

    /** The {@code q}-quantile (nearest rank) of {@code millis}; NaN when there are none. */
    static double quantile(List<Long> millis, double q) {
        if (millis.isEmpty()) {
            return Double.NaN;
        }
        List<Long> sorted = millis.stream().sorted().toList();
        int rank = (int) Math.ceil(q * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private static String latencies(List<Long> millis) {
        return millis.isEmpty()
                ? "not measured"
                : String.format(
                        Locale.ROOT,
                        "%.0f / %.0f ms (%d creates)",
                        quantile(millis, 0.5),
                        quantile(millis, 0.99),
                        millis.size());
    }

    private static String spread(List<Long> values, String unit) {
        return values.isEmpty()
                ? "none"
                : String.format(Locale.ROOT, "%.0f / %.0f %s", quantile(values, 0.5), quantile(values, 0.9), unit);
    }

    /** The release on close from recovery on: each invocation's part, when it ended, and what it left held. */
    private String release() {
        List<HerdRecorder.Release> parts = recorder.releases;
        if (parts.isEmpty()) {
            return "| release on close | none seen |\n";
        }
        long released = parts.stream().mapToLong(HerdRecorder.Release::released).sum();
        long backSooner =
                parts.stream().mapToLong(HerdRecorder.Release::backSooner).sum();
        long continued = parts.stream().filter(r -> r.how().equals("continued")).count();
        // the release ends when the breaker's row no longer names one, after it did
        boolean began = false;
        HerdRecorder.Sample ended = null;
        for (HerdRecorder.Sample sample : recorder.samples) {
            if (sample.at() < recoveredAt) {
                continue;
            }
            began |= sample.releasing();
            if (began && !sample.releasing()) {
                ended = sample;
                break;
            }
        }
        return String.format(
                Locale.ROOT,
                """
                        | held jobs released (by the closing invocation + %d continuing) | %d (+ %d back by themselves as soon) |
                        | release finished after recovery; held rows it left | %s |
                        | how each invocation's part ended | %s |
                        """,
                continued,
                released,
                backSooner,
                ended == null
                        ? "not finished when the run ended"
                        : String.format(Locale.ROOT, "%.1f s; %d", (ended.at() - recoveredAt) / 1000.0, ended.held()),
                parts.stream()
                        .map(r -> String.format(
                                Locale.ROOT,
                                "%s %+.1f s: %d in %d ms, %s",
                                r.how(),
                                (r.at() - recoveredAt) / 1000.0,
                                r.released(),
                                r.millis(),
                                r.ending()))
                        .toList());
    }

    String summary() {
        List<Second> after = seconds().stream().filter(s -> s.second() >= 0).toList();
        long putsAfter = after.stream().mapToLong(Second::puts).sum();
        Second peak = after.stream().max(Comparator.comparingLong(Second::puts)).orElseThrow();
        // the drain: from the first second with a PUT to the last
        int firstPut = after.stream()
                .filter(s -> s.puts() > 0)
                .mapToInt(Second::second)
                .min()
                .orElse(0);
        int lastPut = after.stream()
                .filter(s -> s.puts() > 0)
                .mapToInt(Second::second)
                .max()
                .orElse(-1);
        List<Second> drain = after.stream()
                .filter(s -> s.second() >= firstPut && s.second() <= lastPut)
                .toList();
        long busySeconds = drain.size();
        double closedAfter = recorder.samples.stream()
                .filter(s -> s.at() >= recoveredAt && "CLOSED".equals(s.breaker()))
                .findFirst()
                .map(s -> (s.at() - recoveredAt) / 1000.0)
                .orElse(Double.NaN);
        List<HerdRecorder.Transition> transitions = recorder.transitions.stream()
                .filter(t -> t.at() >= recoveredAt - 1000)
                .toList();
        boolean closed = false;
        int reopened = 0;
        for (HerdRecorder.Transition t : transitions) {
            closed |= t.to().equals("CLOSED");
            reopened += closed && t.to().equals("OPEN") ? 1 : 0;
        }
        boolean reopenedBySample = false;
        boolean closedBySample = false;
        for (HerdRecorder.Sample s : recorder.samples) {
            closedBySample |= s.at() >= recoveredAt && "CLOSED".equals(s.breaker());
            reopenedBySample |= closedBySample && "OPEN".equals(s.breaker());
        }
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                """
                        | figure | value |
                        |---|---:|
                        | pastes held through the outage | %d |
                        | create latency with S3 healthy: p50 / p99 | %s |
                        | the same creates in the function (its Latency metric); the runtime's invocation | %s; %s |
                        | create latency during the outage: p50 / p99 | %s |
                        | the same creates in the function (its Latency metric); the runtime's invocation | %s; %s |
                        | held deliveries: first; again | %d; %d |
                        | a held delivery's hold: p50 / p90; its time in the function: p50 / p90 | %s; %s |
                        | created (S3 down) in | %.1f s |
                        | every job held by the breaker after | %.1f s |
                        | outage length | %.1f s |
                        | S3 PUTs during the outage | %d |
                        | breaker closed after recovery | %.1f s |
                        | last paste PROCESSED after recovery | %.1f s%s |
                        | pastes read back (200, their content) | %d of %d sampled |
                        | S3 PUTs after recovery | %d |
                        | S3 PUTs per paste, outage and recovery | %.3f |
                        | peak S3 PUTs/s (second) | %d (%d) |
                        | average S3 PUTs/s over the drain (%d s, first PUT to last) | %.0f |
                        | database backends: max (max active) | %d (%d) |
                        | upload invocations in flight: busiest second (average over the drain) | %.1f (%.1f) |
                        | uploads in flight, at most %d an invocation: busiest second (average over the drain) | %.1f (%.1f) |
                        | breaker transitions from recovery | %s |
                        | second opening | %s |
                        """,
                pastes,
                latencies(healthyCreateMillis),
                latencies(log.lastCreatesInFunction(healthyCreateMillis.size())),
                latencies(log.lastCreateInvocations(healthyCreateMillis.size())),
                latencies(outageCreateMillis),
                latencies(log.firstCreatesInFunction(outageCreateMillis.size())),
                latencies(log.firstCreateInvocations(outageCreateMillis.size())),
                log.firstHeldDeliveries(),
                log.heldDeliveriesAgain(),
                spread(log.holdSeconds(), "s"),
                spread(log.heldDeliveryMillis(), "ms"),
                creating.toMillis() / 1000.0,
                heldAfter.toMillis() / 1000.0,
                outage.toMillis() / 1000.0,
                putsDuringOutage,
                closedAfter,
                lastProcessedSeconds,
                drained ? "" : " (NOT ALL within the limit)",
                readable,
                Math.min(200, pastes),
                putsAfter,
                (double) (putsDuringOutage + putsAfter) / pastes,
                peak.puts(),
                peak.second(),
                busySeconds,
                busySeconds == 0 ? 0.0 : (double) putsAfter / busySeconds,
                after.stream().mapToInt(Second::maxBackends).max().orElse(0),
                after.stream().mapToInt(Second::maxActiveBackends).max().orElse(0),
                after.stream().mapToDouble(Second::invocations).max().orElse(0),
                drain.stream().mapToDouble(Second::invocations).average().orElse(0),
                uploadParallelism,
                after.stream().mapToDouble(Second::uploads).max().orElse(0),
                drain.stream().mapToDouble(Second::uploads).average().orElse(0),
                transitions.stream()
                        .map(t -> String.format(
                                Locale.ROOT, "%s→%s at %+.1f s", t.from(), t.to(), (t.at() - recoveredAt) / 1000.0))
                        .toList(),
                reopened > 0 || reopenedBySample ? "YES" : "no"));
        out.append(release());
        return out.toString();
    }
}
