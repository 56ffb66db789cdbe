package dev.pastebin.local.cli;

import dev.pastebin.local.Json;
import dev.pastebin.local.lambda.InvocationResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Like {@code sam local invoke -e}: starts one fresh function JVM from the function's artifact, invokes it
 * once with the event file and prints the response (or the error document) on stdout; logs go to stderr.
 * Exits with status 1 when the function reported an error.
 *
 * <p>Usage: {@code LocalInvoke <LogicalId> <event-file> --template template.yaml [--env-vars env.json] ...}
 */
public final class LocalInvoke {

    private LocalInvoke() {}

    // The runtime is the resource closed here; it writes to System.err and leaves it open.
    @SuppressWarnings("ClosingStandardOutputStreams")
    public static void main(String[] args) throws Exception {
        CommandLineFlags.Parsed flags = CommandLineFlags.parse(args, System.getenv());
        if (flags.positional().size() != 2) {
            System.err.println("usage: LocalInvoke <LogicalId> <event-file> --template template.yaml [flags]");
            System.exit(2);
        }
        int status;
        try (LocalRuntime runtime = LocalRuntime.create(flags.settings(), System.err)) {
            status = invoke(
                    runtime,
                    flags.positional().get(0),
                    Path.of(flags.positional().get(1)),
                    System.out);
        }
        System.exit(status);
    }

    static int invoke(LocalRuntime runtime, String logicalId, Path eventFile, PrintStream out)
            throws IOException, InterruptedException {
        byte[] event = Files.readAllBytes(eventFile);
        if (Json.parseOrNull(event) == null) {
            throw new IllegalArgumentException(eventFile + " is not a JSON document");
        }
        InvocationResult result = runtime.function(logicalId).invoke(event, "event " + eventFile.getFileName());
        out.write(result.payload());
        out.println();
        out.flush();
        return result.failed() ? 1 : 0;
    }
}
