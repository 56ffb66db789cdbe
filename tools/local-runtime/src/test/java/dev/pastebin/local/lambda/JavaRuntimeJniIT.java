package dev.pastebin.local.lambda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.TestSupport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Function JVMs of different runtimes on one machine never share the runtime interface client's JNI library
 * file: the client's own unpacking rewrites one fixed /tmp path under JVMs mapping it (SIGBUS).
 */
class JavaRuntimeJniIT {

    @Test
    void eachRuntimeUnpacksTheClientsJniLibraryIntoAFileOfItsOwn() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        var one = new JavaRuntime(java, TestSupport.ricLib(), "us-east-1", "000000000000", Map.of());
        var other = new JavaRuntime(java, TestSupport.ricLib(), "us-east-1", "000000000000", Map.of());

        Path library = one.jniLibrary().orElseThrow();

        assertTrue(Files.size(library) > 100_000, library + " holds the library");
        assertTrue(library.getFileName().toString().startsWith("aws-lambda-jni-"), library.toString());
        assertNotEquals(library, other.jniLibrary().orElseThrow(), "one file per runtime");
        assertArrayEquals(
                Files.readAllBytes(library),
                Files.readAllBytes(other.jniLibrary().orElseThrow()));
        assertTrue(one.jniLibrary().orElseThrow().equals(library), "unpacked once per runtime");
    }
}
