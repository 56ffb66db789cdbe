package dev.pastebin.infra.local;

import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The command-line clients infra/local/clients.sh installs (CommandLineClientsIT, PrivateBinClientsIT,
 * SignInCreateIT). `make test` installs them beside the Maven build, since on a fresh machine their Rust and Go
 * builds take minutes, and names in {@code PASTEBIN_CLIENTS_INSTALLED} the file it writes when the install has ended
 * (its exit status): a test waits for that file before it looks for a client. Run by hand, with the variable unset,
 * nothing waits: the clients are there or the test says to install them.
 */
final class InstalledClients {

    /** Within the tests' own limit per lifecycle method (it.timeout, 5 minutes). */
    private static final Duration INSTALL_WITHIN = Duration.ofMinutes(4);

    private InstalledClients() {}

    /** Waits until `make test`'s install of the clients has ended, if one runs. */
    static void awaitInstall() {
        String marker = System.getenv("PASTEBIN_CLIENTS_INSTALLED");
        if (marker == null || marker.isBlank()) {
            return;
        }
        Path ended = Path.of(marker);
        await("infra/local/clients.sh, run by make test beside the build, to end (its output follows Maven's)")
                .atMost(INSTALL_WITHIN)
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> Files.exists(ended));
    }

    /**
     * A client clients.sh installs outside the Debian packages, under lib.sh's PASTEBIN_CACHE_DIR, once its install
     * has ended.
     */
    static Path tool(String relative) {
        awaitInstall();
        String cache = System.getenv("PASTEBIN_CACHE_DIR");
        if (cache == null || cache.isBlank()) {
            String xdg = System.getenv("XDG_CACHE_HOME");
            cache = (xdg == null || xdg.isBlank() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(xdg))
                    .resolve("pastebin")
                    .toString();
        }
        return Path.of(cache).resolve(relative);
    }
}
