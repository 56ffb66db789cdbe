package dev.pastebin.upload;

import dev.pastebin.core.breaker.BreakerClosed;
import dev.pastebin.core.delivery.DeliverySchedule;
import dev.pastebin.core.delivery.ReleasePlan;
import dev.pastebin.core.delivery.SqsLimits;
import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.core.lambda.InvocationDeadlines;
import dev.pastebin.core.paste.HeldDelivery;
import dev.pastebin.core.paste.HeldDeliveryRepository;
import io.micronaut.context.event.ApplicationEventListener;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Release on close (docs/design.md, "Circuit breaker"): in the invocation whose probe closed the breaker, the jobs
 * the breaker holds are made visible again, oldest hold first, spread over backlog / rate seconds
 * ({@link DeliverySchedule#releasePlan()}), instead of at their holds' ends (up to {@code max-hold} later). Each released handle is
 * forgotten on its row. It works while the invocation has more than {@code remaining-time-margin} left (the margin
 * the batch's other records were started with), and stops at the first SQS call that fails: whatever it does not
 * release keeps its own hold, so nothing is lost. It never throws.
 */
@Singleton
class HeldJobRelease implements ApplicationEventListener<BreakerClosed> {

    private static final Logger LOG = LoggerFactory.getLogger(HeldJobRelease.class);
    /** Rows read at a time: a page is 50 visibility batches. */
    private static final int PAGE = 500;

    private final HeldDeliveryRepository repository;
    private final MessageVisibility visibility;
    private final InvocationDeadlines deadlines;
    private final UploadProperties upload;
    private final DeliverySchedule schedule;
    private final ReleasePlan plan;
    private final Clock clock;

    @Inject
    HeldJobRelease(
            HeldDeliveryRepository repository,
            MessageVisibility visibility,
            InvocationDeadlines deadlines,
            UploadProperties upload,
            DeliverySchedule schedule) {
        this(repository, visibility, deadlines, upload, schedule, Clock.systemUTC());
    }

    HeldJobRelease(
            HeldDeliveryRepository repository,
            MessageVisibility visibility,
            InvocationDeadlines deadlines,
            UploadProperties upload,
            DeliverySchedule schedule,
            Clock clock) {
        this.repository = repository;
        this.visibility = visibility;
        this.deadlines = deadlines;
        this.upload = upload;
        this.schedule = schedule;
        this.plan = schedule.releasePlan();
        this.clock = clock;
    }

    @Override
    public void onApplicationEvent(BreakerClosed closed) {
        if (!schedule.releasesOnClose()) {
            return;
        }
        try {
            release(closed);
        } catch (RuntimeException e) {
            LOG.warn(
                    "releasing the held jobs after breaker {} closed failed: {}; they keep their holds",
                    closed.breaker(),
                    e.toString());
        }
    }

    private void release(BreakerClosed closed) {
        long started = System.nanoTime();
        Deadline deadline = deadlines.current(upload.remainingTimeMargin());
        Instant now = clock.instant();
        long backlog = repository.countHeldDeliveries(now);
        if (backlog == 0) {
            return;
        }
        long position = 0;
        int released = 0;
        int refused = 0;
        int backSooner = 0;
        boolean stopped = false;
        while (!stopped) {
            List<HeldDelivery> page = repository.findHeldDeliveries(now, PAGE);
            if (page.isEmpty()) {
                break;
            }
            ReleasePlan.Page planned = plan.plan(page, position, now);
            position += page.size();
            backSooner += planned.backSoonerAnyway().size();
            forget(
                    planned.backSoonerAnyway().stream()
                            .map(HeldDelivery::heldReceiptHandle)
                            .toList(),
                    page);
            List<ReleasePlan.Release> releases = planned.releases();
            for (int from = 0; from < releases.size(); from += SqsLimits.BATCH_ENTRIES) {
                if (!deadline.allowsMoreWork()) {
                    stopped = true;
                    break;
                }
                MessageVisibility.BatchResult result = visibility.release(
                        releases.subList(from, Math.min(releases.size(), from + SqsLimits.BATCH_ENTRIES)));
                if (result.callFailed()) {
                    stopped = true;
                    break;
                }
                released += result.changed().size();
                refused += result.refused().size();
                var done = new ArrayList<>(result.changed());
                done.addAll(result.refused());
                forget(done, page);
            }
        }
        LOG.info(
                "breaker {} closed: {} of {} held jobs released over {} s in {} ms; {} back by themselves as soon, "
                        + "{} refused (gone or stale handles), {} not reached (left to their holds)",
                closed.breaker(),
                released,
                backlog,
                plan.window(backlog).toSeconds(),
                Duration.ofNanos(System.nanoTime() - started).toMillis(),
                backSooner,
                refused,
                Math.max(0, backlog - released - refused - backSooner));
    }

    private void forget(List<String> receiptHandles, List<HeldDelivery> page) {
        if (receiptHandles.isEmpty()) {
            return;
        }
        repository.forgetHeldDeliveries(
                page.stream().map(HeldDelivery::shortCode).toList(), receiptHandles);
    }
}
