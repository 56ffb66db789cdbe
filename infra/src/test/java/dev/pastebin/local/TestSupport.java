package dev.pastebin.local;

import java.nio.file.Files;
import java.nio.file.Path;

/** Paths and configuration shared by the infra tests (Maven passes the locations as system properties). */
final class TestSupport {

    private TestSupport() {
    }

    static Path repositoryRoot() {
        return Path.of(System.getProperty("pastebin.local.root", "..")).toAbsolutePath().normalize();
    }

    static Path ricLib() {
        return Path.of(System.getProperty("pastebin.local.ric-lib", "target/ric-lib")).toAbsolutePath();
    }

    /** The fixture template whose functions are the test-only handlers in target/test-classes. */
    static Path fixtureTemplate() {
        Path p = Path.of("target/test-classes/fixture/template.yaml").toAbsolutePath();
        if (!Files.exists(p)) {
            throw new IllegalStateException(p + " is missing; run the tests through Maven");
        }
        return p;
    }

    static LocalRuntimeConfiguration config(Path template, int port) {
        return new LocalRuntimeConfiguration("127.0.0.1", port, repositoryRoot().toString(), template.toString(),
                ricLib().toString(), "infra/target/local-runtime-work", 1, true, null, "000000000000", null);
    }
}
