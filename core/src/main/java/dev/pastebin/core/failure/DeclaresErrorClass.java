package dev.pastebin.core.failure;

/**
 * An exception of this application's own that says which {@link ErrorClass} it is: {@link FailureClassifier}
 * takes its word, without knowing the package that throws it (the breaker's {@code CircuitOpenException}, an
 * {@link IntegrityMismatchException}).
 */
public interface DeclaresErrorClass {

    ErrorClass errorClass();
}
