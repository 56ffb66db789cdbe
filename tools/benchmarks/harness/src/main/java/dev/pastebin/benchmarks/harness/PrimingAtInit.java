package dev.pastebin.benchmarks.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A function under test primed at Init, the state a SnapStart restore resumes from (minus the restore). The
 * project's functions have no setting for it: they get a copy of their task root with tools/benchmarks/priming's jar
 * added to lib/, whose startup listener runs the function's SnapStart primers. The baseline, with no framework
 * to add a bean to, primes by hand when its own {@value #BASELINE_PRIME_AT_INIT} is true.
 */
final class PrimingAtInit {

    /** The baseline's switch for priming at Init (BaselineConfig). */
    static final String BASELINE_PRIME_AT_INIT = "BASELINE_PRIME_AT_INIT";
    /** The baseline's knob for priming as deeply as the project (BaselineConfig). */
    static final String BASELINE_PRIME_SUCCESS_PATH = "BASELINE_PRIME_SUCCESS_PATH";

    private final Path primingJars;
    private final Path work;
    /** Each project task root's primed copy, made once per run. */
    private final Map<Path, Path> primedRoots = new HashMap<>();

    /** {@code primingJars}: tools/benchmarks/priming/target, where its build leaves the jar. */
    PrimingAtInit(Path primingJars, Path work) {
        this.primingJars = primingJars;
        this.work = work;
    }

    /** {@code spec} primed at Init: the baseline as the issue first named it, the project with all its primers. */
    FunctionSpec primed(FunctionSpec spec) {
        if (FunctionsUnderTest.isBaseline(spec)) {
            return spec.withEnv(BASELINE_PRIME_AT_INIT, "true");
        }
        return spec.withTaskRoot(primedRoots.computeIfAbsent(spec.taskRoot(), this::withPrimingJar));
    }

    /** {@code spec} primed at Init, the baseline as deeply as the project (which primes only one way). */
    FunctionSpec primedDeep(FunctionSpec spec) {
        FunctionSpec primed = primed(spec);
        return FunctionsUnderTest.isBaseline(spec) ? primed.withEnv(BASELINE_PRIME_SUCCESS_PATH, "true") : primed;
    }

    private Path withPrimingJar(Path taskRoot) {
        try {
            Path jar = Artifacts.jars(primingJars).stream()
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no priming jar in " + primingJars
                            + ": build tools/benchmarks/priming (tools/benchmarks/run.sh does)"));
            return Artifacts.withExtraJar(taskRoot, jar, work.resolve("primed-" + taskRoot.getFileName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
