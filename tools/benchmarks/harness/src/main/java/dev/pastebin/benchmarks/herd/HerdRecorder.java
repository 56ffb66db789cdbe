package dev.pastebin.benchmarks.herd;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What happens during the release, sampled from outside the system: every 200 ms the run's database (pastes
 * PROCESSED, its backends in {@code pg_stat_activity}, the breaker's row), every second the fault proxy's PUT
 * count, and the runtime's log as it grows (each upload invocation's line gives its batch size and duration,
 * hence the invocations and records in flight; each breaker transition is a log line of the function, and so is each
 * invocation's part of the release on close).
 */
final class HerdRecorder implements AutoCloseable {

    /**
     * One 200 ms sample. {@code at} in ms since the recorder started; {@code held} the rows whose held message the
     * release on close has not taken yet; {@code releasing} whether a release is unfinished (the breaker's row).
     */
    record Sample(
            long at, int processed, int backends, int activeBackends, String breaker, int held, boolean releasing) {}

    /**
     * One invocation's part of a release on close ({@code closed}: the probe's; {@code continued}: a later one), seen
     * at {@code at}: the held jobs it released, those back by themselves as soon, and how it ended.
     */
    record Release(long at, String how, long released, long backSooner, long millis, String ending) {}

    /** One upload invocation: it ended at {@code end} (ms since start) after {@code millis}, with {@code records}. */
    record Invocation(long end, long millis, int records) {
        long start() {
            return end - millis;
        }
    }

    /** One breaker transition line, seen at {@code at} (ms since start). */
    record Transition(long at, String from, String to) {}

    /** The proxy's cumulative PUT count at {@code at}. */
    record PutCount(long at, long puts) {}

    private static final Pattern INVOCATION =
            Pattern.compile("^UploadPasteFunction\\s+SQS batch of (\\d+)\\s+.*?(\\d+) ms");
    private static final Pattern RELEASE = Pattern.compile(
            "breaker \\S+ (closed|continued): release of the close at \\S+: (\\d+) held jobs released in (\\d+) ms, "
                    + "(\\d+) back by themselves as soon, \\d+ refused [^;]*; \\d+ were held; ([^\"]*)");
    private static final Pattern TRANSITION =
            Pattern.compile("\"breaker\":\"[^\"]*\",\"from\":\"(\\w+)\",\"to\":\"(\\w+)\"");

    private final long started = System.nanoTime();
    private final HerdSystem system;
    private final Connection database;
    private final long ownPid;
    private final RandomAccessFile log;
    private final StringBuilder partialLine = new StringBuilder();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "herd-recorder");
        t.setDaemon(true);
        return t;
    });
    final List<Sample> samples = new ArrayList<>();
    final List<Invocation> invocations = new ArrayList<>();
    final List<Transition> transitions = new ArrayList<>();
    final List<PutCount> puts = new ArrayList<>();
    final List<Release> releases = new ArrayList<>();

    HerdRecorder(HerdSystem system, Path runtimeLog) throws SQLException, IOException {
        this.system = system;
        this.database = system.connect();
        try (var st = database.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            ownPid = rs.getLong(1);
        }
        log = new RandomAccessFile(runtimeLog.toFile(), "r");
        log.seek(log.length()); // only what happens from now on
        // Each sample catches its own failures, so that the fixed-rate task is never cancelled by one.
        var unusedDatabase = scheduler.scheduleAtFixedRate(this::sampleDatabaseAndLog, 0, 200, TimeUnit.MILLISECONDS);
        var unusedPuts = scheduler.scheduleAtFixedRate(this::samplePuts, 0, 1, TimeUnit.SECONDS);
    }

    long now() {
        return (System.nanoTime() - started) / 1_000_000;
    }

    private void sampleDatabaseAndLog() {
        try {
            readLog();
            try (PreparedStatement st = database.prepareStatement("""
                    SELECT (SELECT count(*) FROM pastes WHERE status = 'PROCESSED'),
                           (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> ?),
                           (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> ? AND state <> 'idle'),
                           (SELECT state FROM circuit_breakers WHERE name = 's3'),
                           (SELECT count(*) FROM pastes WHERE held_receipt_handle IS NOT NULL AND held_until > now()
                              AND status = 'IN_PROGRESS'),
                           -- read through to_jsonb so that a tree from before the release's cursor (V11) is measured too
                           (SELECT to_jsonb(b) ->> 'release_from' IS NOT NULL FROM circuit_breakers b WHERE name = 's3')""")) {
                st.setLong(1, ownPid);
                st.setLong(2, ownPid);
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    Sample s = new Sample(
                            now(),
                            rs.getInt(1),
                            rs.getInt(2),
                            rs.getInt(3),
                            rs.getString(4),
                            rs.getInt(5),
                            rs.getBoolean(6));
                    synchronized (this) {
                        samples.add(s);
                    }
                }
            }
        } catch (SQLException | IOException | RuntimeException e) {
            System.err.println("herd: a sample failed: " + e);
        }
    }

    private void samplePuts() {
        try {
            long count = system.s3Puts();
            synchronized (this) {
                puts.add(new PutCount(now(), count));
            }
        } catch (RuntimeException e) {
            System.err.println("herd: the PUT count failed: " + e);
        }
    }

    private void readLog() throws IOException {
        long length = log.length();
        if (length <= log.getFilePointer()) {
            return;
        }
        byte[] chunk = new byte[(int) Math.min(length - log.getFilePointer(), 4 << 20)];
        log.readFully(chunk);
        partialLine.append(new String(chunk, StandardCharsets.UTF_8));
        long at = now();
        int newline;
        while ((newline = partialLine.indexOf("\n")) >= 0) {
            String line = partialLine.substring(0, newline);
            partialLine.delete(0, newline + 1);
            Matcher invocation = INVOCATION.matcher(line);
            Matcher transition = TRANSITION.matcher(line);
            Matcher release = RELEASE.matcher(line);
            synchronized (this) {
                if (release.find()) {
                    releases.add(new Release(
                            at,
                            release.group(1),
                            Long.parseLong(release.group(2)),
                            Long.parseLong(release.group(4)),
                            Long.parseLong(release.group(3)),
                            release.group(5)));
                } else if (invocation.find()) {
                    invocations.add(new Invocation(
                            at, Long.parseLong(invocation.group(2)), Integer.parseInt(invocation.group(1))));
                } else if (transition.find()) {
                    transitions.add(new Transition(at, transition.group(1), transition.group(2)));
                }
            }
        }
    }

    @Override
    public void close() throws SQLException, IOException {
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sampleDatabaseAndLog();
        samplePuts();
        database.close();
        log.close();
    }
}
