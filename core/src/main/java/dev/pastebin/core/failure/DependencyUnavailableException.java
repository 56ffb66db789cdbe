package dev.pastebin.core.failure;

/**
 * A dependency the request needs cannot be reached right now and the client should retry: answered 503 with
 * {@code Retry-After}. Thrown by {@link DependencyCalls} when the {@link FailureClassifier} calls a failure
 * transient. Its message is for the log, never the client: for the database it adds what
 * {@link DatabaseConnectionDiagnosis} recognises (a wrong trust anchor, host name, an expired certificate, a
 * refused password), so the one line a 503 logs names the root cause and the setting to check.
 */
public class DependencyUnavailableException extends RuntimeException {

    private final Dependency dependency;

    public DependencyUnavailableException(Dependency dependency, Throwable cause) {
        super(message(dependency, cause), cause);
        this.dependency = dependency;
    }

    private static String message(Dependency dependency, Throwable cause) {
        String message =
                dependency.label() + " unavailable: " + cause.getClass().getSimpleName();
        return dependency == Dependency.DATABASE
                ? DatabaseConnectionDiagnosis.explain(cause)
                        .map(explanation -> message + ": " + explanation)
                        .orElse(message)
                : message;
    }

    public Dependency dependency() {
        return dependency;
    }
}
