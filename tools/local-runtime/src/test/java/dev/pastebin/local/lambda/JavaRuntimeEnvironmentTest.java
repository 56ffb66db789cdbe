package dev.pastebin.local.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaRuntimeEnvironmentTest {

    @Test
    void namesTheTemplatesRuntimeAndSetsWhatLambdaSets(@TempDir Path ricLib) {
        var runtime = new JavaRuntime(Path.of("java"), ricLib, "eu-west-1", "123456789012", Map.of());
        var function = new FunctionConfiguration(
                "CreatePasteFunction",
                "example.Handler",
                "java25",
                Path.of("task"),
                512,
                Duration.ofSeconds(15),
                Map.of("PASTEBIN_X", "1"),
                List.of());

        Map<String, String> env = runtime.environment(function, "127.0.0.1:9001");

        assertEquals("AWS_Lambda_java25", env.get("AWS_EXECUTION_ENV"));
        assertEquals("example.Handler", env.get("_HANDLER"));
        assertEquals("512", env.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE"));
        assertEquals("127.0.0.1:9001", env.get("AWS_LAMBDA_RUNTIME_API"));
        assertEquals("eu-west-1", env.get("AWS_REGION"));
        assertEquals("1", env.get("PASTEBIN_X"));
        assertNull(env.get("PASTEBIN_RECORD_CALLS_DIR"));
    }

    @Test
    void theRuntimesOwnVariablesReachTheFunctionAndItsOwnVariablesWin(@TempDir Path ricLib) {
        var runtime = new JavaRuntime(Path.of("java"), ricLib, "eu-west-1", "123456789012", Map.of())
                .withVariable("PASTEBIN_RECORD_CALLS_DIR", "/tmp/calls")
                .withVariable("PASTEBIN_Y", "runtime");
        var function = new FunctionConfiguration(
                "SweeperFunction",
                "example.Handler",
                "java21",
                Path.of("task"),
                512,
                Duration.ofSeconds(15),
                Map.of("PASTEBIN_Y", "function"),
                List.of());

        Map<String, String> env = runtime.environment(function, "127.0.0.1:9001");

        assertEquals("/tmp/calls", env.get("PASTEBIN_RECORD_CALLS_DIR"));
        assertEquals("SweeperFunction", env.get("AWS_LAMBDA_FUNCTION_NAME"));
        assertEquals("function", env.get("PASTEBIN_Y"));
    }
}
