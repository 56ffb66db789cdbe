package dev.pastebin.benchmarks.scale;

import dev.pastebin.testkit.RunDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The load's own database on the local PostgreSQL (a {@link RunDatabase}: dropped and created afresh, core's
 * migrations applied), and what PostgreSQL says about the load on it: backends waiting for a lock (sampled every
 * 10 ms), the CPU its backends used (from /proc, PostgreSQL runs on this machine), and the row updates of
 * {@code circuit_breakers}.
 */
final class ScaleDatabase implements AutoCloseable {

    private static final long CLOCK_TICKS_PER_SECOND = 100;

    private final RunDatabase database;
    private final String name;
    private Connection observer;
    private Connection lockWaitSampler;
    private long samplerPid;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lock-wait-sampler");
        t.setDaemon(true);
        return t;
    });
    private volatile Samples lockWaiters = new Samples();

    ScaleDatabase(String host, int port, String user, String password, String name) {
        this.database = new RunDatabase(host, port, user, password, name);
        this.name = name;
    }

    String url() {
        return database.url();
    }

    /** Drops and recreates the database with core's migrations. */
    void recreate() throws SQLException {
        database.recreate();
        observer = database.connect();
        lockWaitSampler = database.connect();
        try (Statement st = lockWaitSampler.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            samplerPid = rs.getLong(1);
        }
        // sampleLockWaiters catches its own failures, so that the fixed-rate task is never cancelled by one.
        var unused = sampler.scheduleAtFixedRate(this::sampleLockWaiters, 10, 10, TimeUnit.MILLISECONDS);
    }

    /** Back to a closed breaker with empty windows, between runs. */
    void resetBreaker(String breaker) throws SQLException {
        try (PreparedStatement st = observer.prepareStatement("""
                UPDATE circuit_breakers SET state = 'CLOSED', window_started_at = now(), window_calls = 0,
                    window_failures = 0, previous_calls = 0, previous_failures = 0, opened_at = NULL,
                    next_probe_at = NULL, cooldown_ms = 0, last_cause = NULL WHERE name = ?""")) {
            st.setString(1, breaker);
            st.executeUpdate();
        }
    }

    /** Starts a fresh sample of the number of backends waiting for a lock and returns it. */
    Samples startLockWaitSample() {
        Samples samples = new Samples();
        lockWaiters = samples;
        return samples;
    }

    private void sampleLockWaiters() {
        try (PreparedStatement st = lockWaitSampler.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = ? AND wait_event_type = 'Lock'")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                lockWaiters.add(rs.getLong(1));
            }
        } catch (SQLException e) {
            // a missed sample; the next one follows in 10 ms
        }
    }

    /** CPU seconds used so far by the client backends of this database (the sampler's own excluded). */
    double backendCpuSeconds() throws SQLException, IOException {
        List<Long> pids = new ArrayList<>();
        try (PreparedStatement st = observer.prepareStatement("SELECT pid FROM pg_stat_activity WHERE datname = ? "
                + "AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND pid <> ?")) {
            st.setString(1, name);
            st.setLong(2, samplerPid);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    pids.add(rs.getLong(1));
                }
            }
        }
        long ticks = 0;
        for (long pid : pids) {
            Path stat = Path.of("/proc", Long.toString(pid), "stat");
            if (Files.isReadable(stat)) {
                // fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the line
                String line = Files.readString(stat);
                String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            }
        }
        return ticks / (double) CLOCK_TICKS_PER_SECOND;
    }

    /** Rows of {@code circuit_breakers} updated so far, as PostgreSQL's statistics count them. */
    long breakerRowUpdates() throws SQLException {
        try (Statement st = observer.createStatement()) {
            st.execute("SELECT pg_stat_clear_snapshot()");
            try (ResultSet rs =
                    st.executeQuery("SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'circuit_breakers'")) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    @Override
    public void close() throws SQLException {
        sampler.shutdownNow();
        if (lockWaitSampler != null) {
            lockWaitSampler.close();
        }
        if (observer != null) {
            observer.close();
        }
    }
}
