package dev.pastebin.chaos;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * The chaos suite: starts the whole local system behind fault proxies, drives it with pastes at a steady
 * concurrency while the schedule's faults happen, waits for every paste to settle, checks each one, prints
 * one table and (with {@code --report}) writes it to a page. From here it runs {@link Strictness#STRICT}: a
 * measurement whose timing checks fail it too; the test command's {@code ChaosSuiteIT} runs
 * {@link Strictness#CORRECTNESS}.
 *
 * <pre>
 * java -cp ... dev.pastebin.chaos.ChaosSuite [--schedule full|short] [--report docs/reliability.md]
 *      [--api-port 3101] [--db-port 5433] [--seed N]
 * </pre>
 */
public final class ChaosSuite {

    /** How often the suite looks at the database and the queues while the system settles. */
    private static final Duration SETTLE_POLL = Duration.ofSeconds(2);

    /** What a run needs besides its schedule; {@code strictness} is {@link Strictness#STRICT} unless changed. */
    public record Options(
            Path root, int apiPort, int databasePort, long seed, String localStackEndpoint, Strictness strictness) {

        public static Options fromEnvironment(Path root) {
            Map<String, String> env = System.getenv();
            return new Options(
                    root,
                    0,
                    Integer.parseInt(env.getOrDefault("PASTEBIN_CHAOS_DB_PORT", "5433")),
                    12,
                    env.getOrDefault("LOCALSTACK_ENDPOINT", "http://127.0.0.1:4566"),
                    Strictness.STRICT);
        }

        Options withApiPort(int port) {
            return new Options(root, port, databasePort, seed, localStackEndpoint, strictness);
        }

        Options withDatabasePort(int port) {
            return new Options(root, apiPort, port, seed, localStackEndpoint, strictness);
        }

        Options withSeed(long newSeed) {
            return new Options(root, apiPort, databasePort, newSeed, localStackEndpoint, strictness);
        }

        public Options withStrictness(Strictness newStrictness) {
            return new Options(root, apiPort, databasePort, seed, localStackEndpoint, newStrictness);
        }
    }

    private ChaosSuite() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.fromEnvironment(repositoryRoot());
        String schedule = "full";
        Path report = null;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--schedule" -> schedule = value;
                case "--report" -> report = Path.of(value);
                case "--api-port" -> options = options.withApiPort(Integer.parseInt(value));
                case "--db-port" -> options = options.withDatabasePort(Integer.parseInt(value));
                case "--seed" -> options = options.withSeed(Long.parseLong(value));
                default ->
                    throw new IllegalArgumentException("unknown flag " + args[i]
                            + " (--schedule full|short, --report FILE, --api-port N, --db-port N, --seed N)");
            }
        }
        ChaosReport result = run(ChaosSchedule.named(schedule), options);
        System.out.println(result.faultTable());
        System.out.println(result.table());
        result.findings().stream().limit(50).forEach(f -> System.out.println("  - " + f));
        if (report != null) {
            Files.writeString(
                    report,
                    ReliabilityPage.render(
                            result,
                            "make chaos" + ("full".equals(schedule) ? "" : " ARGS=\"--schedule " + schedule + "\"")));
            System.out.println("[chaos] written " + report);
        }
        System.out.println(result.passed() ? "[chaos] PASSED" : "[chaos] FAILED");
        System.exit(result.passed() ? 0 : 1);
    }

    public static ChaosReport run(ChaosSchedule schedule, Options options) throws Exception {
        Instant began = Instant.now();
        String runId = DateTimeFormatter.ofPattern("MMddHHmmss")
                .withZone(ZoneOffset.UTC)
                .format(began);
        CloudFormationTemplate template =
                CloudFormationTemplate.load(options.root().resolve("infra/template.yaml"));
        Budget budget = Budget.of(template);
        Path logs = options.root().resolve("tools/chaos/target/chaos-" + runId);
        var settings = new LocalSystem.Settings(
                options.root(), runId, options.apiPort(), options.databasePort(), options.localStackEndpoint());
        Strictness strictness = options.strictness();
        System.out.printf(
                "[chaos] %s schedule, %s; starting the system (logs: %s)%n", schedule.name(), strictness.label(), logs);
        try (LocalSystem system = LocalSystem.start(settings, logs, template)) {
            System.out.printf(
                    "[chaos] API on %s; %d creates/s for %d s, %d faults%n",
                    system.api(),
                    (int) schedule.createsPerSecond(),
                    schedule.load().toSeconds(),
                    schedule.faults().size());
            Instant start = Instant.now();
            Load load = new Load(system.api(), schedule, options.seed());
            FaultDriver faults = new FaultDriver(system, start);
            Thread driver = Thread.ofPlatform().name("chaos-faults").start(() -> {
                try {
                    faults.run(schedule);
                } catch (Exception e) {
                    throw new IllegalStateException("a fault could not be applied", e);
                }
            });
            load.run(start, elapsed -> strictness.loadOver(schedule, elapsed, load.accepted(), !driver.isAlive()));
            driver.join();
            List<FaultWindow> windows = faults.windows();
            if (windows.size() != schedule.faults().size()) {
                throw new IllegalStateException("only " + windows.size() + " of "
                        + schedule.faults().size() + " faults happened (see the log above)");
            }
            System.out.printf(
                    "[chaos] load done after %d s: %d pastes accepted; waiting for every paste to settle%n",
                    Duration.between(start, Instant.now()).toSeconds(), load.accepted());

            Instant settleBy = windows.stream()
                    .map(w -> w.end().plus(budget.recovery(w.kind())))
                    .reduce(Instant.now().plus(Budget.STEADY), (a, b) -> a.isAfter(b) ? a : b)
                    .plus(strictness.settleGrace());
            awaitNoRowInProgress(system, settleBy);
            int[] depths = awaitEmptyQueues(system, settleBy);
            Map<String, Checks.Row> rows;
            try (Connection db = system.database()) {
                rows = Checks.rows(db);
            }
            ChaosReport report = new Checks(budget, strictness)
                    .evaluate(
                            schedule,
                            start,
                            windows,
                            load,
                            rows,
                            system.s3().putsByObjectName(),
                            depths,
                            Duration.between(began, Instant.now()));
            if (report.passed()) {
                system.removeResourcesOnClose();
            }
            return report;
        }
    }

    private static void awaitNoRowInProgress(LocalSystem system, Instant until) throws Exception {
        while (Instant.now().isBefore(until)) {
            try (Connection db = system.database();
                    var s = db.createStatement();
                    var r = s.executeQuery("SELECT count(*) FROM pastes WHERE status = 'IN_PROGRESS'")) {
                r.next();
                if (r.getInt(1) == 0) {
                    return;
                }
            }
            Thread.sleep(SETTLE_POLL);
        }
    }

    /** Waits until the queue and the dead-letter queue are empty (redeliveries of settled pastes included). */
    private static int[] awaitEmptyQueues(LocalSystem system, Instant until) throws InterruptedException {
        while (true) {
            int[] depths = system.queueDepths();
            if ((depths[0] == 0 && depths[1] == 0) || !Instant.now().isBefore(until)) {
                return depths;
            }
            Thread.sleep(SETTLE_POLL);
        }
    }

    /** The repository root: the nearest directory upwards holding infra/template.yaml. */
    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("infra/template.yaml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("run the chaos suite inside the repository (no infra/template.yaml above "
                + Path.of("").toAbsolutePath() + ")");
    }
}
