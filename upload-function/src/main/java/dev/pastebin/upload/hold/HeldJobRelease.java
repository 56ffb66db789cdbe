package dev.pastebin.upload.hold;

import dev.pastebin.core.breaker.BreakerClosed;
import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.delivery.DeliverySchedule;
import dev.pastebin.core.delivery.ReleasePlan;
import dev.pastebin.core.delivery.SqsLimits;
import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.core.lambda.InvocationDeadlines;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.paste.HeldDelivery;
import dev.pastebin.upload.UploadProperties;
import io.micronaut.context.event.ApplicationEventListener;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Release on close (docs/design.md, "Circuit breaker"): the jobs the breaker holds are made visible again, oldest hold
 * first, spread over backlog / rate seconds from the close ({@link DeliverySchedule#releasePlan()}), instead of at their
 * holds' ends (up to {@code max-hold} later). The invocation whose probe closed the breaker begins it; whatever that
 * invocation does not reach before its margin, later ones continue ({@link #continuePending}), one at a time, until no
 * held job is left ({@link HeldReleaseStore}). Each takes a page of held jobs at a time (forgetting their handles) and
 * releases it with {@code pastebin.delivery.release-parallelism} visibility batches in flight; a batch whose call fails is noted again
 * for a later page, and this invocation stops. It never throws: whatever is not released keeps its own hold.
 */
@Singleton
public class HeldJobRelease implements ApplicationEventListener<BreakerClosed> {

    private static final Logger LOG = LoggerFactory.getLogger(HeldJobRelease.class);
    /** Held jobs taken at a time: 20 visibility batches, a few rounds of calls, well inside any margin. */
    public static final int PAGE = 200;
    /** A lease never outlives Lambda's longest invocation, whatever the deadline says (none, outside Lambda). */
    private static final Duration LONGEST_LEASE = Duration.ofMinutes(15);

    private final HeldDeliveryRepository heldDeliveries;
    private final HeldReleaseStore progress;
    private final MessageVisibility visibility;
    private final InvocationDeadlines deadlines;
    private final UploadProperties upload;
    private final DeliverySchedule schedule;
    private final ReleasePlan plan;
    private final S3CircuitBreaker breaker;
    private final String breakerName;
    private final Clock clock;

    @Inject
    public HeldJobRelease(
            HeldDeliveryRepository heldDeliveries,
            HeldReleaseStore progress,
            MessageVisibility visibility,
            InvocationDeadlines deadlines,
            UploadProperties upload,
            DeliverySchedule schedule,
            S3CircuitBreaker breaker,
            BreakerProperties breakerProperties) {
        this(
                heldDeliveries,
                progress,
                visibility,
                deadlines,
                upload,
                schedule,
                breaker,
                breakerProperties,
                Clock.systemUTC());
    }

    public HeldJobRelease(
            HeldDeliveryRepository heldDeliveries,
            HeldReleaseStore progress,
            MessageVisibility visibility,
            InvocationDeadlines deadlines,
            UploadProperties upload,
            DeliverySchedule schedule,
            S3CircuitBreaker breaker,
            BreakerProperties breakerProperties,
            Clock clock) {
        this.heldDeliveries = heldDeliveries;
        this.progress = progress;
        this.visibility = visibility;
        this.deadlines = deadlines;
        this.upload = upload;
        this.schedule = schedule;
        this.plan = schedule.releasePlan();
        this.breaker = breaker;
        this.breakerName = breakerProperties.name();
        this.clock = clock;
    }

    /** In the probe's own call: begins the release and releases what this invocation can. */
    @Override
    public void onApplicationEvent(BreakerClosed closed) {
        if (!schedule.releasesOnClose()) {
            return;
        }
        Deadline deadline = deadlines.current(upload.remainingTimeMargin());
        // the store keeps microseconds: the close is named as it will be read back
        Instant from = closed.closedAt().truncatedTo(ChronoUnit.MICROS);
        try {
            if (progress.begin(closed.breaker(), from, leaseUntil(deadline))) {
                release(closed.breaker(), from, deadline, "closed");
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "releasing the held jobs after breaker {} closed failed: {}; a later invocation continues, or they "
                            + "keep their holds",
                    closed.breaker(),
                    e.toString());
        }
    }

    /**
     * After a batch: continues the release of held jobs this environment last saw unfinished and unattended (no
     * read of its own), if its lease can be had and the invocation has time left.
     */
    public void continuePending(Deadline deadline) {
        if (!schedule.releasesOnClose() || !deadline.allowsMoreWork()) {
            return;
        }
        Instant now = clock.instant();
        if (breaker.releaseToContinue(now).isEmpty()) {
            return;
        }
        try {
            Optional<Instant> leased = progress.lease(breakerName, now, leaseUntil(deadline));
            if (leased.isPresent()) {
                release(breakerName, leased.get(), deadline, "continued");
            }
        } catch (RuntimeException e) {
            LOG.warn("continuing the release of breaker {} failed: {}", breakerName, e.toString());
        }
    }

    /** The lease ends when the invocation would: a holder that dies leaves it to the next one then. */
    private Instant leaseUntil(Deadline deadline) {
        long millis = Math.min(deadline.remainingMillis(), LONGEST_LEASE.toMillis());
        return clock.instant().plusMillis(millis);
    }

    /** Under the lease: pages until nothing is held, the margin, a failed call, or the release is no longer current. */
    private void release(String name, Instant from, Deadline deadline, String how) {
        long started = System.nanoTime();
        long backlog = heldDeliveries.countHeldDeliveries(clock.instant());
        Counts counts = new Counts();
        String ending = "stopped at the invocation's margin";
        boolean leaseHeld = true;
        try {
            while (deadline.allowsMoreWork()) {
                Instant now = clock.instant();
                Optional<HeldReleaseStore.Taken> taken = progress.take(name, from, now, PAGE);
                if (taken.isEmpty()) {
                    ending = "no longer current (the breaker opened again, or a later close released)";
                    leaseHeld = false;
                    break;
                }
                if (taken.get().held().isEmpty()) {
                    progress.finish(name, from);
                    ending = "finished: no held job left";
                    leaseHeld = false;
                    break;
                }
                ReleasePlan.Page planned =
                        plan.plan(taken.get().held(), taken.get().firstPosition(), from, now);
                counts.backSooner += planned.backSoonerAnyway().size();
                List<HeldDelivery> notReleased = releaseAll(planned.releases(), counts);
                if (!notReleased.isEmpty()) {
                    progress.restore(notReleased);
                    ending = "stopped: " + notReleased.size() + " not released (SQS failed), noted again";
                    break;
                }
            }
        } finally {
            if (leaseHeld) {
                yieldLease(name, from);
            }
        }
        LOG.info(
                "breaker {} {}: release of the close at {}: {} held jobs released in {} ms, {} back by themselves as "
                        + "soon, {} refused (gone or stale handles); {} were held; {}",
                name,
                how,
                from,
                counts.released,
                Duration.ofNanos(System.nanoTime() - started).toMillis(),
                counts.backSooner,
                counts.refused,
                backlog,
                ending);
    }

    private void yieldLease(String name, Instant from) {
        try {
            progress.yieldLease(name, from);
        } catch (RuntimeException e) {
            LOG.warn("could not yield the release of breaker {}: {}; its lease runs out instead", name, e.toString());
        }
    }

    /**
     * Releases one page, {@code release-parallelism} visibility batches at a time; the deliveries of the batches whose
     * call failed are returned.
     */
    private List<HeldDelivery> releaseAll(List<ReleasePlan.Release> releases, Counts counts) {
        var batches = new ArrayList<List<ReleasePlan.Release>>();
        for (int from = 0; from < releases.size(); from += SqsLimits.BATCH_ENTRIES) {
            batches.add(releases.subList(from, Math.min(releases.size(), from + SqsLimits.BATCH_ENTRIES)));
        }
        var calls = new ArrayList<Future<MessageVisibility.BatchResult>>();
        var slots = new Semaphore(schedule.releaseParallelism());
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (List<ReleasePlan.Release> batch : batches) {
                slots.acquireUninterruptibly();
                calls.add(executor.submit(LogContext.carried(() -> {
                    try {
                        return visibility.release(batch);
                    } finally {
                        slots.release();
                    }
                })));
            }
        }
        var notReleased = new ArrayList<HeldDelivery>();
        for (int i = 0; i < batches.size(); i++) {
            MessageVisibility.BatchResult result = resultOf(calls.get(i));
            if (result.callFailed()) {
                batches.get(i).forEach(r -> notReleased.add(r.held()));
            } else {
                counts.released += result.changed().size();
                counts.refused += result.refused().size();
            }
        }
        return notReleased;
    }

    /** MessageVisibility never throws; a call that did anyway counts as failed. */
    private static MessageVisibility.BatchResult resultOf(Future<MessageVisibility.BatchResult> call) {
        try {
            return call.get();
        } catch (ExecutionException e) {
            return new MessageVisibility.BatchResult(List.of(), List.of(), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new MessageVisibility.BatchResult(List.of(), List.of(), true);
        }
    }

    /** What one invocation's release did. */
    private static final class Counts {
        long released;
        long refused;
        long backSooner;
    }
}
