package dev.pastebin.core.failure;

/**
 * A dependency the request needs cannot be reached right now and the client should retry: answered 503 with
 * {@code Retry-After}. Thrown by {@link DependencyCalls} when the {@link FailureClassifier} calls a failure
 * transient.
 */
public class DependencyUnavailableException extends RuntimeException {

    private final Dependency dependency;

    public DependencyUnavailableException(Dependency dependency, Throwable cause) {
        super(dependency.label() + " unavailable: " + cause.getClass().getSimpleName(), cause);
        this.dependency = dependency;
    }

    public Dependency dependency() {
        return dependency;
    }
}
