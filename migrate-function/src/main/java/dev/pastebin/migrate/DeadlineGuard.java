package dev.pastebin.migrate;

import dev.pastebin.core.lambda.Deadline;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the work on a thread of its own and waits for it only while the {@link Deadline} allows: CloudFormation
 * must hear SUCCESS or FAILED before Lambda ends the invocation, or it waits an hour for an answer. When the
 * margin is reached first, {@code onTimeout} is run (it aborts the work's connections, so PostgreSQL rolls its
 * transaction back) and the outcome is a failure.
 */
final class DeadlineGuard {

    private DeadlineGuard() {}

    sealed interface Outcome<T> {}

    record Done<T>(T value) implements Outcome<T> {}

    record Failed<T>(Throwable failure) implements Outcome<T> {}

    record TimedOut<T>(long budgetMillis) implements Outcome<T> {}

    static <T> Outcome<T> run(Deadline deadline, Callable<T> work, Runnable onTimeout) {
        long budget = deadline.remainingMillis() - deadline.margin().toMillis();
        if (budget <= 0) {
            return new TimedOut<>(0);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread worker = Thread.ofPlatform().name("database-migration").daemon().start(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            return new Done<>(result.get(budget, TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            return new Failed<>(e.getCause());
        } catch (TimeoutException e) {
            onTimeout.run();
            worker.interrupt();
            return new TimedOut<>(budget);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            onTimeout.run();
            worker.interrupt();
            return new Failed<>(e);
        }
    }
}
