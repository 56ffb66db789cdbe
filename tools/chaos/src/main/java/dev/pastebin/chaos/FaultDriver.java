package dev.pastebin.chaos;

import dev.pastebin.faults.FaultProxy;
import dev.pastebin.faults.Mode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Makes each fault of the schedule happen at its time, one after the other, and records when it really did. */
final class FaultDriver {

    /** Kill attempts until one hits a running batch (the upload processes may be between batches). */
    private static final int KILL_TRIES = 10;

    private final LocalSystem system;
    private final Instant start;
    private final List<FaultWindow> windows = new ArrayList<>();

    FaultDriver(LocalSystem system, Instant start) {
        this.system = system;
        this.start = start;
    }

    List<FaultWindow> windows() {
        return List.copyOf(windows);
    }

    void run(ChaosSchedule schedule) throws Exception {
        for (ChaosSchedule.Fault fault : schedule.faults()) {
            sleepUntil(start.plus(fault.at()));
            Instant from = Instant.now();
            String note = switch (fault.kind()) {
                case S3_ERRORS -> proxyFault(system.s3(), Mode.OUTAGE, fault.duration());
                case S3_THROTTLING -> proxyFault(system.s3(), Mode.THROTTLE, fault.duration());
                case S3_DOWN -> proxyFault(system.s3(), Mode.DOWN, fault.duration());
                case SQS_UNAVAILABLE -> proxyFault(system.sqs(), Mode.OUTAGE, fault.duration());
                case POSTGRES_STOPPED -> stopDatabase(fault.duration());
                case UPLOAD_KILLED -> killUploadsMidBatch();
                case BURST -> {
                    sleepUntil(from.plus(fault.duration()));
                    yield "";
                }
            };
            windows.add(new FaultWindow(fault, from, Instant.now(), note));
            System.out.printf("[chaos] %s: %s%n", fault.kind().label(), note.isEmpty() ? "done" : note);
        }
    }

    private static String proxyFault(FaultProxy proxy, Mode mode, Duration duration) throws InterruptedException {
        Instant until = Instant.now().plus(duration);
        proxy.switchOn(mode, duration);
        sleepUntil(until);
        proxy.recover();
        return "";
    }

    private String stopDatabase(Duration duration) throws Exception {
        system.stopDatabase();
        Instant stopped = Instant.now();
        sleepUntil(stopped.plus(duration));
        system.startDatabase();
        return "stopped for " + Duration.between(stopped, Instant.now()).toSeconds() + " s";
    }

    /**
     * SIGKILLs every upload process until the runtime reports a batch that ended with its process (so a kill
     * really hit a batch), then waits for the runtime to have started new upload processes.
     */
    private String killUploadsMidBatch() throws InterruptedException {
        int before = system.uploadInvocationsEndedByExit();
        int killed = 0;
        int interrupted = 0;
        for (int i = 0; i < KILL_TRIES && interrupted == 0; i++) {
            killed += system.killUploadProcesses();
            Thread.sleep(2_000);
            interrupted = system.uploadInvocationsEndedByExit() - before;
        }
        Instant deadline = Instant.now().plusSeconds(120);
        while (system.uploadProcesses().isEmpty() && Instant.now().isBefore(deadline)) {
            Thread.sleep(500);
        }
        return killed + " processes killed, " + interrupted + " batch(es) ended Runtime.ExitError, "
                + system.uploadProcesses().size() + " new upload process(es) started by the runtime";
    }

    private static void sleepUntil(Instant moment) throws InterruptedException {
        long millis = Duration.between(Instant.now(), moment).toMillis();
        if (millis > 0) {
            Thread.sleep(millis);
        }
    }
}
