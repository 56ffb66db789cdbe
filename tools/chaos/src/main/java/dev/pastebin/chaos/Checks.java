package dev.pastebin.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.chaos.FaultKind.Route;
import dev.pastebin.faults.PutCount;
import dev.pastebin.local.Json;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/** The end-of-run checks, per paste and over every answer, exactly as the suite promises them. */
final class Checks {

    /** A request that started or ended this long after a window still belongs to it (pools reconnecting). */
    static final Duration GRACE = Duration.ofSeconds(10);

    private static final int FINAL_READS_IN_FLIGHT = 8;

    /** A paste's row at the end. */
    record Row(String status, String failureReason, int uploadAttempts, Instant createdAt, Instant updatedAt) {}

    private final Budget budget;
    private final Strictness strictness;
    private final List<String> findings = Collections.synchronizedList(new ArrayList<>());

    Checks(Budget budget, Strictness strictness) {
        this.budget = budget;
        this.strictness = strictness;
    }

    static Map<String, Row> rows(Connection db) throws SQLException {
        Map<String, Row> rows = new HashMap<>();
        try (Statement s = db.createStatement();
                ResultSet r = s.executeQuery(
                        "SELECT short_code, status, failure_reason, upload_attempts, created_at, updated_at FROM pastes")) {
            while (r.next()) {
                rows.put(
                        r.getString(1),
                        new Row(
                                r.getString(2),
                                r.getString(3),
                                r.getInt(4),
                                r.getTimestamp(5).toInstant(),
                                r.getTimestamp(6).toInstant()));
            }
        }
        return rows;
    }

    ChaosReport evaluate(
            ChaosSchedule schedule,
            Instant start,
            List<FaultWindow> windows,
            Load load,
            Map<String, Row> rows,
            Map<String, PutCount> puts,
            int[] queueDepths,
            Duration run)
            throws InterruptedException {
        List<Load.SentPaste> pastes = load.pastes();
        int lost = 0, stuck = 0, late = 0, failed = 0;
        List<Duration> toTerminal = new ArrayList<>();
        List<Load.SentPaste> processed = new ArrayList<>();
        for (Load.SentPaste paste : pastes) {
            Row row = rows.get(paste.shortCode());
            if (row == null) {
                lost++;
                findings.add(paste.shortCode() + ": accepted (201) but has no row");
                continue;
            }
            if (row.status().equals("IN_PROGRESS")) {
                stuck++;
                findings.add(paste.shortCode() + ": still IN_PROGRESS after " + row.uploadAttempts() + " S3 attempts");
                continue;
            }
            toTerminal.add(Duration.between(row.createdAt(), row.updatedAt()));
            Instant deadline = budget.deadline(row.createdAt(), row.updatedAt(), windows);
            if (row.updatedAt().isAfter(deadline)) {
                late++;
                findings.add(paste.shortCode() + ": " + row.status() + " at " + offset(start, row.updatedAt())
                        + ", budget ended at " + offset(start, deadline));
            }
            if (row.status().equals("PROCESSED")) {
                processed.add(paste);
            } else {
                // Every fault the suite injects is transient, and a transient failure never fails a paste: after
                // its fast attempts it waits on the slow schedule (late at worst, which is checked above).
                failed++;
                findings.add(paste.shortCode() + ": FAILED (" + row.failureReason() + ") after " + row.uploadAttempts()
                        + " S3 attempts; proxy saw " + puts.get(paste.shortCode()));
            }
        }
        int[] readBack = readBack(load, processed);
        lost += readBack[0];

        int inside = 0, outside = 0, notDocumented = 0, unexpected = 0;
        Map<FaultKind, Integer> byFault = new EnumMap<>(FaultKind.class);
        List<Load.ApiCall> calls = load.calls();
        for (Load.ApiCall call : calls) {
            if (call.status() >= 500) {
                var window = windows.stream()
                        .filter(w -> w.kind().makesUnavailable(call.route())
                                && w.overlaps(call.sent(), call.answered(), GRACE))
                        .findFirst();
                if (window.isPresent()) {
                    inside++;
                    byFault.merge(window.get().kind(), 1, Integer::sum);
                } else {
                    outside++;
                    findings.add(call.route() + " answered " + call.status() + " at " + offset(start, call.sent())
                            + ", outside every planned window: " + call.body());
                }
                if (!documentedUnavailable(call)) {
                    notDocumented++;
                    findings.add(call.route() + " answered " + call.status() + " without the documented JSON: "
                            + call.body());
                }
            } else if (!expected(call)) {
                unexpected++;
                findings.add(call.route() + " answered " + call.status() + " at " + offset(start, call.sent()) + ": "
                        + call.body());
            }
        }
        int wrongBytes = readBack[1] + load.wrongBytesWhileRunning().size();
        load.wrongBytesWhileRunning().forEach(code -> findings.add(code + ": a read during the run gave other bytes"));

        Set<String> sentCodes = pastes.stream().map(Load.SentPaste::shortCode).collect(Collectors.toSet());
        int inProgress = (int) rows.values().stream()
                .filter(r -> r.status().equals("IN_PROGRESS"))
                .count();
        int refusedCreateRows = (int)
                rows.keySet().stream().filter(code -> !sentCodes.contains(code)).count();
        Collections.sort(toTerminal);
        var figures = new ChaosReport.Figures(
                pastes.size(),
                (int) calls.stream().filter(c -> c.route() == Route.CREATE).count(),
                (int) calls.stream().filter(c -> c.route() == Route.READ).count(),
                lost,
                stuck,
                late,
                wrongBytes,
                failed,
                percentile(toTerminal, 0.50),
                percentile(toTerminal, 0.99),
                percentile(toTerminal, 1.0),
                inside,
                outside,
                notDocumented,
                unexpected,
                byFault,
                queueDepths[0],
                queueDepths[1],
                inProgress,
                refusedCreateRows,
                puts.values().stream().mapToInt(PutCount::attempts).sum(),
                puts.values().stream().mapToInt(PutCount::faulted).sum(),
                run);
        return new ChaosReport(schedule, budget, strictness, start, windows, figures, List.copyOf(findings));
    }

    /** Reads every PROCESSED paste once more: [not readable, other bytes]. */
    private int[] readBack(Load load, List<Load.SentPaste> processed) throws InterruptedException {
        AtomicInteger unreadable = new AtomicInteger();
        AtomicInteger wrong = new AtomicInteger();
        Semaphore inFlight = new Semaphore(FINAL_READS_IN_FLIGHT);
        try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Load.SentPaste paste : processed) {
                inFlight.acquire();
                readers.execute(() -> {
                    try {
                        HttpResponse<byte[]> response = load.read(paste.shortCode());
                        if (response.statusCode() != 200) {
                            unreadable.incrementAndGet();
                            findings.add(paste.shortCode() + ": PROCESSED but read answered " + response.statusCode());
                        } else if (!Arrays.equals(paste.content(), response.body())) {
                            wrong.incrementAndGet();
                            findings.add(paste.shortCode() + ": PROCESSED with other bytes (" + response.body().length
                                    + " read, " + paste.content().length + " posted)");
                        }
                    } catch (Exception e) {
                        unreadable.incrementAndGet();
                        findings.add(paste.shortCode() + ": PROCESSED but the read failed: " + e);
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
        return new int[] {unreadable.get(), wrong.get()};
    }

    /** The documented answer of an unavailable dependency: 503, Retry-After, {code, message, requestId}. */
    private static boolean documentedUnavailable(Load.ApiCall call) {
        JsonNode body = Json.parseOrNull(call.body().getBytes(StandardCharsets.UTF_8));
        return call.status() == ApiErrorCode.SERVICE_UNAVAILABLE.status().getCode()
                && call.retryAfter() != null
                && body != null
                && body.isObject()
                && ApiErrorCode.SERVICE_UNAVAILABLE
                        .name()
                        .equals(body.path("code").asText())
                && !body.path("message").asText().isBlank()
                && !body.path("requestId").asText().isBlank();
    }

    /** A create is accepted; a read finds the paste stored, in progress, or FAILED (404). */
    private static boolean expected(Load.ApiCall call) {
        return switch (call.route()) {
            case CREATE -> call.status() == 201;
            case READ -> call.status() == 200 || call.status() == 202 || call.status() == 404;
        };
    }

    private static Duration percentile(List<Duration> sorted, double p) {
        if (sorted.isEmpty()) {
            return Duration.ZERO;
        }
        return sorted.get(Math.max(0, (int) Math.ceil(p * sorted.size()) - 1));
    }

    private static String offset(Instant start, Instant moment) {
        return String.format(
                Locale.ROOT, "%.1f s", Duration.between(start, moment).toMillis() / 1000.0);
    }
}
