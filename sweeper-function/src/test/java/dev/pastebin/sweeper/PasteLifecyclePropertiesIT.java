package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random interleavings, against the real PostgreSQL, of what happens to pastes under at-least-once delivery:
 * concurrent upload deliveries (success, a counted failed attempt, a permanent failure), duplicates and late
 * deliveries of the same job, and sweeper runs (stuck rows marked FAILED, FAILED rows deleted), with "time"
 * advanced by running the sweeper with zero thresholds. Whatever the order: each paste has at most one
 * transition out of IN_PROGRESS, its final row is the one that transition made (a PROCESSED row keeps its
 * location, only FAILED rows are ever deleted), and once a last sweep has run no paste is IN_PROGRESS.
 *
 * <p>A database of its own (the sweeper's statements work across the whole table), selected in
 * {@link #start()}: jqwik runs no Jupiter extensions, so {@code @OwnDatabase} cannot do it.
 */
class PasteLifecyclePropertiesIT {

    private static ApplicationContext context;
    private static PasteRepository pastes;
    private static SweepRepository sweeps;
    private static DataSource dataSource;

    enum Kind {
        UPLOADED,
        ATTEMPT_FAILED,
        FAILED_PERMANENTLY,
        SWEEP_STUCK,
        SWEEP_FAILED
    }

    /** One step of one actor on paste {@code paste} (sweeps act on every paste). */
    record Op(Kind kind, int paste) {}

    record Scenario(int pastes, int actors, List<Op> ops) {}

    @BeforeContainer
    static void start() throws SQLException {
        OwnDatabase.Create.use("sweeper");
        context = ApplicationContext.builder().environments("test").start();
        pastes = context.getBean(PasteRepository.class);
        sweeps = context.getBean(SweepRepository.class);
        dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
    }

    @AfterContainer
    static void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Property(tries = 150)
    void noTerminalRowEverMovesAndEveryPasteEndsTerminal(@ForAll("scenarios") Scenario scenario) throws Exception {
        String run = "pl" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < scenario.pastes(); i++) {
            String code = run + i;
            pastes.save(TestPastes.inProgress(code, null, "0".repeat(64), 1));
            codes.add(code);
        }
        Map<String, AtomicInteger> processedWins = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> failedWins = new ConcurrentHashMap<>();
        codes.forEach(c -> {
            processedWins.put(c, new AtomicInteger());
            failedWins.put(c, new AtomicInteger());
        });

        // each actor runs its share of the steps in order; the actors run at the same time
        try (ExecutorService actors = Executors.newFixedThreadPool(scenario.actors())) {
            List<Future<?>> running = new ArrayList<>();
            for (int a = 0; a < scenario.actors(); a++) {
                int actor = a;
                running.add(actors.submit(() -> {
                    for (int i = actor; i < scenario.ops().size(); i += scenario.actors()) {
                        apply(scenario.ops().get(i), codes, processedWins, failedWins);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        }
        // time passes: the sweeper's stuck threshold and retention are long over
        try (Connection connection = dataSource.getConnection()) {
            sweeps.markStuckFailed(connection, Duration.ZERO, 1_000);
        }

        Map<String, String[]> rows = rows(run);
        for (String code : codes) {
            int wins = processedWins.get(code).get() + failedWins.get(code).get();
            String[] row = rows.get(code);
            assertTrue(wins <= 1, code + ": " + wins + " transitions out of IN_PROGRESS in " + scenario);
            if (processedWins.get(code).get() == 1) {
                assertTrue(row != null, code + " PROCESSED, then deleted: " + scenario);
                assertEquals(PasteStatus.PROCESSED.name(), row[0], code + " left PROCESSED: " + scenario);
                assertEquals(location(code), row[1], code + " PROCESSED with another location: " + scenario);
            } else if (row != null) {
                assertEquals(PasteStatus.FAILED.name(), row[0], code + " ended " + row[0] + ": " + scenario);
                assertNotEquals(null, row[2], code + ": FAILED without a reason");
                if (failedWins.get(code).get() == 1) {
                    assertEquals("permanent: test", row[2], code + " failed by us, then re-marked: " + scenario);
                }
            }
            // else: FAILED, then deleted by a sweep; a PROCESSED row is never deleted (checked above)
        }
    }

    private static void apply(
            Op op, List<String> codes, Map<String, AtomicInteger> processedWins, Map<String, AtomicInteger> failedWins)
            throws SQLException {
        String code = codes.get(op.paste() % codes.size());
        switch (op.kind()) {
            case UPLOADED -> processedWins.get(code).addAndGet(pastes.markProcessed(code, location(code)));
            case ATTEMPT_FAILED -> pastes.recordUploadAttempt(code);
            case FAILED_PERMANENTLY -> failedWins.get(code).addAndGet(pastes.markFailed(code, "permanent: test"));
            case SWEEP_STUCK -> {
                try (Connection connection = dataSource.getConnection()) {
                    sweeps.markStuckFailed(connection, Duration.ZERO, 1_000);
                }
            }
            case SWEEP_FAILED -> {
                try (Connection connection = dataSource.getConnection()) {
                    sweeps.deleteExpiredFailed(connection, Duration.ZERO, 1_000);
                }
            }
        }
    }

    private static String location(String code) {
        return "s3://bucket/pastes/" + code;
    }

    /** status, s3_location, failure_reason of this run's rows. */
    private static Map<String, String[]> rows(String run) throws SQLException {
        Map<String, String[]> rows = new HashMap<>();
        try (Connection c = dataSource.getConnection();
                var q = c.prepareStatement(
                        "SELECT short_code, status, s3_location, failure_reason FROM pastes WHERE short_code LIKE ?")) {
            q.setString(1, run + "%");
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    rows.put(rs.getString(1), new String[] {rs.getString(2), rs.getString(3), rs.getString(4)});
                }
            }
        }
        return rows;
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Integer> pasteCount = Arbitraries.integers().between(1, 3);
        Arbitrary<Integer> actors = Arbitraries.integers().between(1, 4);
        // uploads dominate, as deliveries do; sweeps are rarer
        Arbitrary<Kind> kinds = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Arbitraries.just(Kind.UPLOADED)),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(Kind.ATTEMPT_FAILED)),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.FAILED_PERMANENTLY)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.SWEEP_STUCK)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.SWEEP_FAILED)));
        Arbitrary<Op> ops =
                Combinators.combine(kinds, Arbitraries.integers().between(0, 2)).as(Op::new);
        return Combinators.combine(pasteCount, actors, ops.list().ofMinSize(0).ofMaxSize(12))
                .as(Scenario::new);
    }
}
