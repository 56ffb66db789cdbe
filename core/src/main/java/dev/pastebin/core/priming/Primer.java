package dev.pastebin.core.priming;

/**
 * One warm-up of a function's hot path with no side effect (no row, no message, no object): it loads and
 * runs the code and opens the connections the first request would otherwise pay for. Every {@code Primer}
 * bean runs before a SnapStart snapshot ({@link PrimingResource}).
 */
public interface Primer {

    /** What is primed, for the log line. */
    String name();

    void prime() throws Exception;
}
