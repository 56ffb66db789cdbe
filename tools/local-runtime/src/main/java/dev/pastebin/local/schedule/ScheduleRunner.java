package dev.pastebin.local.schedule;

import dev.pastebin.local.Json;
import dev.pastebin.local.lambda.InvocationResult;
import dev.pastebin.local.lambda.LambdaFunction;
import dev.pastebin.local.template.FunctionDefinition;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fires a function's Schedule events at the template's rate, or at the local override interval (so a run can
 * be watched without waiting its period). The first run is one period after start, as with a new EventBridge
 * rule; a run the previous one delayed (by half a period or more) is skipped, not fired late.
 */
public final class ScheduleRunner implements AutoCloseable {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("schedule").unstarted(r));
    private final String region;
    private final String accountId;
    private final PrintStream log;

    public ScheduleRunner(String region, String accountId, PrintStream log) {
        this.region = region;
        this.accountId = accountId;
        this.log = log;
    }

    /** Schedules the trigger; returns its period, or null when it cannot run locally (a cron without override). */
    public Duration schedule(LambdaFunction function, FunctionDefinition.ScheduleTrigger trigger, Duration override) {
        String id = function.name();
        Duration period = override != null ? override : trigger.rate().orElse(null);
        if (period == null) {
            log.println("schedule " + id + "/" + trigger.eventName() + ": " + trigger.expression()
                    + " is not a rate(...); set --schedule-interval to run it locally");
            return null;
        }
        String ruleArn = ScheduledEvents.ruleArn(region, accountId, id, trigger.eventName());
        // At a fixed rate the executor fires the runs a long run (a cold start) made it miss back to back;
        // EventBridge never replays a missed run, so a run delayed by half a period or more is skipped: the
        // schedule goes on at its rate from the next tick.
        long periodNanos = period.toNanos();
        long firstDue = System.nanoTime() + periodNanos;
        AtomicLong ticks = new AtomicLong();
        var unused = timer.scheduleAtFixedRate(
                () -> {
                    long due = firstDue + ticks.getAndIncrement() * periodNanos;
                    if (System.nanoTime() - due < periodNanos / 2) {
                        try {
                            fire(function, trigger, ruleArn, period);
                        } catch (RuntimeException e) {
                            // A task that throws is never run again by the executor: report it, keep the schedule.
                            log.println("schedule " + id + "/" + trigger.eventName() + ": run failed: " + e);
                        }
                    }
                },
                period.toMillis(),
                period.toMillis(),
                TimeUnit.MILLISECONDS);
        log.println("schedule " + id + "/" + trigger.eventName() + ": every " + period
                + (override != null ? " (local override of " + trigger.expression() + ")" : "")
                + ", next at " + Instant.now().plus(period));
        return period;
    }

    private void fire(
            LambdaFunction function, FunctionDefinition.ScheduleTrigger trigger, String ruleArn, Duration period) {
        byte[] event = trigger.input()
                .map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseGet(() -> Json.bytes(ScheduledEvents.event(ruleArn, accountId, region, Instant.now())));
        String outcome;
        try {
            InvocationResult result = function.invoke(event, "schedule " + trigger.eventName());
            // the function's own answer (a failed invocation's error document), so a run can be judged from the log
            outcome = (result.failed() ? "invocation failed: " : "returned ") + result.payloadText();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            outcome = "invocation failed: " + e.getMessage();
        }
        log.println("schedule " + function.name() + "/" + trigger.eventName() + ": " + outcome + "; next at "
                + Instant.now().plus(period));
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
