package dev.pastebin.chaos;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The time a paste may take to reach a terminal state, as the schedule predicts it from the system's own
 * settings. Without a fault: the whole retry schedule, an environment's start and queueing. A fault that starts while the paste is
 * still in progress extends that to the fault's end plus the fault's recovery time:
 * <ul>
 *   <li>S3 faults: the breaker's longest cool-down and hold (a paste whose fast attempts ran out in the fault
 *       waits on the same hold schedule, slow), then a normal schedule;</li>
 *   <li>a killed upload process or unreachable SQS: the queue's visibility timeout (the batch's messages come
 *       back only then), then a normal schedule;</li>
 *   <li>PostgreSQL stopped, a burst: a normal schedule after the end.</li>
 * </ul>
 *
 * @param maxAttempts       fast S3 attempts before a paste waits on the slow schedule (the template's UploadMaxAttempts)
 * @param visibilityTimeout the upload queue's VisibilityTimeout (the template's)
 */
public record Budget(int maxAttempts, Duration visibilityTimeout) {

    /**
     * 1 + 2 + 4 + 8 + 16 s of retries (± jitter), a new execution environment's init (the local runtime allows
     * 60 s: a JVM on a loaded 2-core machine needs them), the batching window and queueing.
     */
    static final Duration STEADY = Duration.ofSeconds(120);
    /**
     * A held or slow job's longest wait past an S3 fault, with the defaults: a hold lasts until the probe (at most
     * the 4 s cool-down away) but at least 15 s, as a slow wait does, or half the time waited when longer (at most
     * 2 min for the schedules' S3 faults of up to 4 min), plus up to 5 s of jitter. The probe that closes the breaker
     * usually releases them sooner (release on close); this bounds a job the release does not reach.
     */
    static final Duration BREAKER_RECOVERY = Duration.ofMinutes(2).plusSeconds(20);

    public static Budget of(CloudFormationTemplate template) {
        int attempts = template.intValue(template.parameter("UploadMaxAttempts").get("Default"));
        int visibility = template.intValue(template.properties("UploadQueue").get("VisibilityTimeout"));
        return new Budget(attempts, Duration.ofSeconds(visibility));
    }

    public Duration recovery(FaultKind kind) {
        return switch (kind) {
            case S3_ERRORS, S3_THROTTLING, S3_DOWN -> BREAKER_RECOVERY.plus(STEADY);
            case UPLOAD_KILLED, SQS_UNAVAILABLE -> visibilityTimeout.plus(STEADY);
            case POSTGRES_STOPPED, BURST -> STEADY;
        };
    }

    /**
     * The latest moment a paste created at {@code created} and terminal at {@code terminal} may have reached
     * its terminal state: every window that started before the paste was terminal (and within its budget so
     * far) extends the budget to the window's end plus its recovery.
     */
    public Instant deadline(Instant created, Instant terminal, List<FaultWindow> windowsByStart) {
        Instant deadline = created.plus(STEADY);
        for (FaultWindow w : windowsByStart) {
            if (w.start().isBefore(deadline)
                    && w.start().isBefore(terminal)
                    && !w.end().plus(recovery(w.kind())).isBefore(created)) {
                Instant extended = w.end().plus(recovery(w.kind()));
                if (extended.isAfter(deadline)) {
                    deadline = extended;
                }
            }
        }
        return deadline;
    }
}
