package dev.pastebin.benchmarks.scale;

import ch.qos.logback.classic.Level;
import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.breaker.CircuitOpenException;
import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.metrics.Metrics;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The shared breaker at fleet concurrency (docs/scale.md): N callers, each an execution environment with its
 * own {@link S3CircuitBreaker} and its own connection from a pool of N (up to {@code --connections}), run core's real breaker and
 * {@code JdbcBreakerStore} against the local PostgreSQL, around a simulated S3 call of 20-50 ms. Four phases:
 * healthy (every call succeeds), flaky (1% answer 500, as S3 does now and then; the breaker must stay
 * closed), outage (every call answers 500) and recovery (every call succeeds again, until the breaker has
 * closed and for the phase's length after). The sessions run with the upload worker's lock and statement
 * timeouts. Per phase it prints the calls, the calls the breaker failed itself (its row not read or changed
 * in time), the breaker's own time per call
 * (the whole call minus the S3 call), the locked updates of the row and their time, the backends waiting for
 * a lock, the database's CPU and the transitions.
 *
 * <p>Usage: {@code BreakerLoad [--callers 50,200,500] [--seconds 8] [--connections 40]}: at most
 * {@code connections} connections, shared by the callers beyond that many; PGHOST, PGPORT, PGUSER,
 * PGPASSWORD select the server (default 127.0.0.1:5432, pastebin/pastebin); the database is
 * {@code pastebin_scale_breaker}, dropped and created afresh.
 */
public final class BreakerLoad {

    private static final String BREAKER = "s3";

    /** The phases, each with the share of S3 calls that answer 500. */
    private enum Phase {
        HEALTHY(0.0),
        FLAKY(0.01),
        OUTAGE(1.0),
        RECOVERY(0.0);

        final double failureRate;

        Phase(double failureRate) {
            this.failureRate = failureRate;
        }
    }

    /** One phase's measurements. */
    private record Result(
            int callers,
            int connections,
            Phase phase,
            double seconds,
            int s3Calls,
            int refused,
            int breakerErrors,
            Samples breakerMicros,
            CountingBreakerStore.Tally tally,
            Samples lockWaiters,
            double cpuSeconds,
            long rowUpdates) {}

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        // transitions are counted by the store; their log lines would only interleave with the table
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("pastebin.breaker")).setLevel(Level.ERROR);
        // nor the migrations' (Flyway logs each one at INFO)
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.flywaydb")).setLevel(Level.WARN);
        Map<String, String> options = options(args);
        List<Integer> callerCounts = List.of(
                        options.getOrDefault("callers", "50,200,500").split(","))
                .stream()
                .map(Integer::parseInt)
                .toList();
        Duration phaseLength = Duration.ofSeconds(Long.parseLong(options.getOrDefault("seconds", "8")));
        // the local server allows 100 connections, shared with everything else running against it
        int connections = Integer.parseInt(options.getOrDefault("connections", "40"));

        String host = env("PGHOST", "127.0.0.1");
        int port = Integer.parseInt(env("PGPORT", "5432"));
        String user = env("PGUSER", "pastebin");
        String password = env("PGPASSWORD", "pastebin");
        List<Result> results = new ArrayList<>();
        try (var database = new ScaleDatabase(host, port, user, password, "pastebin_scale_breaker")) {
            database.recreate();
            for (int callers : callerCounts) {
                database.resetBreaker(BREAKER);
                results.addAll(run(database, user, password, callers, connections, phaseLength));
            }
        }
        print(results);
    }

    /** One fleet of {@code callers} environments through the four phases. */
    private static List<Result> run(
            ScaleDatabase database, String user, String password, int callers, int connections, Duration phaseLength)
            throws Exception {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("datasources.default.url", database.url());
        properties.put("datasources.default.username", user);
        properties.put("datasources.default.password", password);
        properties.put("datasources.default.dialect", "POSTGRES");
        // one connection per environment, as in Lambda, up to what the shared local server can spare; beyond it
        // callers queue for a connection, as they would behind RDS Proxy
        properties.put("datasources.default.maximum-pool-size", Math.min(callers, connections));
        properties.put("datasources.default.minimum-idle", Math.min(callers, connections));
        properties.put("datasources.default.allow-pool-suspension", true);
        // the upload worker's sessions: a breaker update that waits a second for the row's lock fails
        properties.put(
                "datasources.default.connection-init-sql", "SET lock_timeout = '1s'; SET statement_timeout = '2s'");
        properties.put("pastebin.metrics.service", "upload");
        properties.put("pastebin.breaker.name", BREAKER);
        // the breaker's clock shortened to fit phases of seconds: a 2 s window (the default 60 s would need a
        // minute of outage to outweigh the healthy calls before it), and short cool-downs, so that the outage
        // sees probes fail and the recovery's probe comes soon
        properties.put("pastebin.breaker.window", "2s");
        properties.put("pastebin.breaker.cooldown", "2s");
        properties.put("pastebin.breaker.max-cooldown", "4s");
        try (ApplicationContext context = ApplicationContext.run(properties)) {
            var store = new CountingBreakerStore(context.getBean(BreakerStore.class));
            BreakerProperties breakerProperties = context.getBean(BreakerProperties.class);
            FailureClassifier classifier = context.getBean(FailureClassifier.class);
            Metrics metrics = context.getBean(Metrics.class);
            List<S3CircuitBreaker> environments = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                environments.add(new S3CircuitBreaker(store, breakerProperties, classifier, metrics));
            }
            Fleet fleet = new Fleet(environments);
            List<Result> results = new ArrayList<>();
            try {
                fleet.start();
                for (Phase phase : Phase.values()) {
                    results.add(measure(
                            database, store, fleet, callers, Math.min(callers, connections), phase, phaseLength));
                }
            } finally {
                fleet.stop();
            }
            return results;
        }
    }

    private static Result measure(
            ScaleDatabase database,
            CountingBreakerStore store,
            Fleet fleet,
            int callers,
            int connections,
            Phase phase,
            Duration length)
            throws Exception {
        double cpuBefore = database.backendCpuSeconds();
        long updatesBefore = database.breakerRowUpdates();
        Samples lockWaiters = database.startLockWaitSample();
        CountingBreakerStore.Tally tally = store.startTally();
        Fleet.Counts counts = fleet.startPhase(phase.failureRate);
        long start = System.nanoTime();
        Thread.sleep(length.toMillis());
        if (phase == Phase.RECOVERY) {
            // until the breaker has closed (a probe has succeeded), and a phase's length of closed traffic after
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (tally.closed.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            Thread.sleep(length.toMillis());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result(
                callers,
                connections,
                phase,
                seconds,
                counts.s3Calls.get(),
                counts.refused.get(),
                counts.breakerErrors.get(),
                counts.breakerMicros,
                tally,
                lockWaiters,
                database.backendCpuSeconds() - cpuBefore,
                database.breakerRowUpdates() - updatesBefore);
    }

    /**
     * The callers: each thread is an environment calling S3 through its breaker in a loop. A refused call
     * (the breaker is open) costs the time to take the next job instead of the S3 call, as in the upload worker.
     */
    private static final class Fleet {

        /** One phase's counts from the callers. */
        static final class Counts {
            final double failureRate;
            final AtomicInteger s3Calls = new AtomicInteger();
            final AtomicInteger refused = new AtomicInteger();
            final AtomicInteger breakerErrors = new AtomicInteger();
            final Samples breakerMicros = new Samples();

            Counts(double failureRate) {
                this.failureRate = failureRate;
            }
        }

        private final List<S3CircuitBreaker> environments;
        private final List<Thread> threads = new ArrayList<>();
        private volatile Counts current = new Counts(0);
        private volatile boolean running = true;

        Fleet(List<S3CircuitBreaker> environments) {
            this.environments = environments;
        }

        Counts startPhase(double failureRate) {
            Counts counts = new Counts(failureRate);
            current = counts;
            return counts;
        }

        void start() {
            for (S3CircuitBreaker environment : environments) {
                threads.add(Thread.ofPlatform().daemon().start(() -> loop(environment)));
            }
        }

        void stop() throws InterruptedException {
            running = false;
            for (Thread t : threads) {
                t.join();
            }
        }

        private void loop(S3CircuitBreaker breaker) {
            while (running) {
                Counts counts = current;
                long[] s3Nanos = {0};
                long start = System.nanoTime();
                try {
                    breaker.call(() -> {
                        long s3Start = System.nanoTime();
                        try {
                            return simulatedS3Call(counts);
                        } finally {
                            s3Nanos[0] = System.nanoTime() - s3Start;
                        }
                    });
                } catch (CircuitOpenException refused) {
                    counts.refused.incrementAndGet();
                } catch (S3Exception failed) {
                    // counted by the breaker
                } catch (RuntimeException e) {
                    // the breaker's row could not be read or changed in time (lock or statement timeout): the
                    // upload worker would treat the call as failed, whatever S3 answered
                    counts.breakerErrors.incrementAndGet();
                }
                counts.breakerMicros.add((System.nanoTime() - start - s3Nanos[0]) / 1_000);
                if (s3Nanos[0] == 0) {
                    pause(); // refused: the next job's receive instead of an S3 call
                }
            }
        }

        private static boolean simulatedS3Call(Counts counts) {
            counts.s3Calls.incrementAndGet();
            pause();
            if (ThreadLocalRandom.current().nextDouble() < counts.failureRate) {
                throw (S3Exception) S3Exception.builder()
                        .statusCode(500)
                        .message("We encountered an internal error.")
                        .awsErrorDetails(AwsErrorDetails.builder()
                                .errorCode("InternalError")
                                .build())
                        .build();
            }
            return true;
        }

        /** 20-50 ms: an S3 PUT of a small paste, or a receive. */
        private static void pause() {
            try {
                Thread.sleep(ThreadLocalRandom.current().nextLong(20, 51));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void print(List<Result> results) {
        System.out.println();
        System.out.println(
                "| callers (connections) | phase | s | S3 calls/s | refused/s | breaker errors | breaker ms p50 | p99 | max | locked updates/s "
                        + "| update ms p99 | row writes/s (n_tup_upd) | lock waiters avg / max | DB CPU (cores) | transitions (open/half/closed) |");
        System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        for (Result r : results) {
            CountingBreakerStore.Tally t = r.tally();
            System.out.println(String.format(
                    Locale.ROOT,
                    "| %d (%d) | %s | %.1f | %.0f | %.0f | %d | %.2f | %.2f | %.0f | %.0f | %.1f | %.0f (%.0f) | %.2f / %d | %.2f | %d (%d/%d/%d) |",
                    r.callers(),
                    r.connections(),
                    r.phase().name().toLowerCase(Locale.ROOT),
                    r.seconds(),
                    r.s3Calls() / r.seconds(),
                    r.refused() / r.seconds(),
                    r.breakerErrors(),
                    r.breakerMicros().percentile(50) / 1e3,
                    r.breakerMicros().percentile(99) / 1e3,
                    r.breakerMicros().max() / 1e3,
                    t.lockedUpdates.get() / r.seconds(),
                    t.lockedUpdateMicros.percentile(99) / 1e3,
                    t.writes.get() / r.seconds(),
                    r.rowUpdates() / r.seconds(),
                    average(r.lockWaiters()),
                    r.lockWaiters().max(),
                    r.cpuSeconds() / r.seconds(),
                    t.transitions(),
                    t.opened.get(),
                    t.halfOpened.get(),
                    t.closed.get()));
        }
    }

    private static double average(Samples samples) {
        return samples.mean();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
