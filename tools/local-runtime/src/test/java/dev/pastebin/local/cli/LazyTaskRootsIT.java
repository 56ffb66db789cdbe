package dev.pastebin.local.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.TestSupport;
import dev.pastebin.local.lambda.InvocationResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A lazy runtime ({@code --lazy}, the end-to-end tests') prepares a function's task root (unpacks its zip, runs its
 * makefile build) when the function first runs, not at its start: a test's runtime uses a few of the template's
 * functions. An eager one ({@code make run}) prepares all at start (FunctionProcessIT), so a missing artifact stops it.
 */
class LazyTaskRootsIT {

    @Test
    void aLazyRuntimePreparesTheTaskRootOfAFunctionThatRunsAndNoOther() throws Exception {
        Path work = Path.of("target/local-runtime-lazy-work").toAbsolutePath();
        if (Files.exists(work)) {
            try (Stream<Path> old = Files.walk(work)) {
                old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        RuntimeSettings eager = TestSupport.settings(Map.of(), List.of());
        RuntimeSettings lazy = new RuntimeSettings(
                eager.host(),
                eager.port(),
                eager.template(),
                eager.envVars(),
                eager.parameterOverrides(),
                eager.physicalNames(),
                eager.ricLib(),
                work,
                eager.instances(),
                false,
                eager.scheduleInterval(),
                eager.region(),
                eager.accountId(),
                eager.javaHome(),
                eager.dashboard(),
                eager.initTimeout(),
                eager.recordCallsDir(),
                eager.callRecorderLib(),
                eager.classArchives());
        LocalRuntime runtime = LocalRuntime.create(lazy, System.err);
        try {
            runtime.function("ZipFunction");
            runtime.function("MadeFunction");
            assertFalse(Files.exists(work.resolve("ZipFunction")), "unpacked before it ran");
            assertFalse(Files.exists(work.resolve("MadeFunction")), "built before it ran");

            InvocationResult result =
                    runtime.function("ZipFunction").invoke("{}".getBytes(StandardCharsets.UTF_8), "test");
            assertFalse(result.failed(), result.payloadText());
            assertTrue(Files.isDirectory(work.resolve("ZipFunction")), "unpacked when it ran");
            assertFalse(Files.exists(work.resolve("MadeFunction")), "a function that never ran is never built");
        } finally {
            runtime.close();
        }
    }
}
