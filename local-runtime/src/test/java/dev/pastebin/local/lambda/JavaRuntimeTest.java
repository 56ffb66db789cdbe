package dev.pastebin.local.lambda;

import dev.pastebin.local.TestSupport;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class JavaRuntimeTest {

    private static final FunctionConfiguration FUNCTION = new FunctionConfiguration("Fn", "example.Handler",
            Path.of("."), 512, Duration.ofSeconds(3), Map.of(), List.of());

    /** The RIC's default, /tmp/.libaws-lambda-jni.so, is rewritten by every process that starts: never shared. */
    @Test
    void everyFunctionProcessLoadsTheRuntimesOwnCopyOfTheNativeClientNeverTheSharedTmpFile() throws Exception {
        JavaRuntime runtime = new JavaRuntime(Path.of("java"), TestSupport.ricLib(), "us-east-1", "000000000000", Map.of());
        JavaRuntime another = new JavaRuntime(Path.of("java"), TestSupport.ricLib(), "us-east-1", "000000000000", Map.of());

        Path library = nativeClientOf(runtime);
        assertEquals(library, nativeClientOf(runtime), "one copy per runtime, unpacked once");
        assertNotEquals(library, nativeClientOf(another), "runtimes never share one");
        assertNotEquals(Path.of("/tmp/.libaws-lambda-jni.so"), library);
        try (var jars = Files.newDirectoryStream(TestSupport.ricLib(), "aws-lambda-java-runtime-interface-client-*.jar");
             ZipFile ric = new ZipFile(jars.iterator().next().toFile())) {
            byte[] expected = ric.getInputStream(ric.getEntry("jni/libaws-lambda-jni.linux-x86_64.so")).readAllBytes();
            assertArrayEquals(expected, Files.readAllBytes(library));
        }
    }

    private static Path nativeClientOf(JavaRuntime runtime) {
        String prefix = "-D" + JavaRuntime.NATIVE_CLIENT_PROPERTY + "=";
        List<String> command = runtime.processBuilder(FUNCTION, "127.0.0.1:1").command();
        int main = command.indexOf(JavaRuntime.RIC_MAIN);
        return command.subList(0, main).stream().filter(a -> a.startsWith(prefix))
                .map(a -> Path.of(a.substring(prefix.length()))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + prefix + " before the main class in " + command));
    }
}
