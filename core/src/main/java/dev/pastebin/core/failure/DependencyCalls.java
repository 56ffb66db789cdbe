package dev.pastebin.core.failure;

import jakarta.inject.Singleton;
import java.util.function.Supplier;

/**
 * How the HTTP functions call a dependency: a failure the {@link FailureClassifier} calls transient becomes a
 * {@link DependencyUnavailableException} (503 + {@code Retry-After}); anything else propagates unchanged and
 * is answered by its own handler, or 500. One place instead of a catch-and-wrap block around every call.
 */
@Singleton
public class DependencyCalls {

    private final FailureClassifier classifier;

    public DependencyCalls(FailureClassifier classifier) {
        this.classifier = classifier;
    }

    public <T> T call(Dependency dependency, Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw unavailableOrItself(dependency, e);
        }
    }

    public void run(Dependency dependency, Runnable call) {
        call(dependency, () -> {
            call.run();
            return null;
        });
    }

    /** The exception to throw for {@code failure}: unavailable when it is transient, else the failure itself. */
    public RuntimeException unavailableOrItself(Dependency dependency, RuntimeException failure) {
        if (failure instanceof DependencyUnavailableException) {
            return failure;
        }
        Failure classified = classifier.classify(failure);
        return classified.isTransient() && !classified.unexpected()
                ? new DependencyUnavailableException(dependency, failure)
                : failure;
    }
}
