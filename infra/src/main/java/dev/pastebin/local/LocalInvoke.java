package dev.pastebin.local;

import io.micronaut.context.ApplicationContext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Like {@code sam local invoke -e}: starts one fresh function JVM from the function's built artifact,
 * invokes it once with the event file and prints the response (or the error document) on stdout; logs go
 * to stderr. Exits with status 1 when the function reported an error.
 *
 * <p>Usage: {@code LocalInvoke <LogicalId> <event-file> [--template infra/template.yaml]}
 */
public final class LocalInvoke {

    private LocalInvoke() {
    }

    public static void main(String[] args) throws Exception {
        CommandLineFlags.Parsed flags = CommandLineFlags.parse(args);
        if (flags.positional().size() != 2) {
            System.err.println("usage: invoke <LogicalId> <event-file> [--template infra/template.yaml]");
            System.exit(2);
        }
        int status;
        try (ApplicationContext context = LocalRuntime.start(flags)) {
            status = invoke(context.getBean(LocalFunctions.class), flags.positional().get(0),
                    Path.of(flags.positional().get(1)));
        }
        System.exit(status);
    }

    static int invoke(LocalFunctions functions, String logicalId, Path eventFile) throws IOException, InterruptedException {
        byte[] event = Files.readAllBytes(eventFile);
        if (Json.parseOrNull(event) == null) {
            throw new IllegalArgumentException(eventFile + " is not a JSON document");
        }
        InvocationResult result = functions.get(logicalId).invoke(event, "event " + eventFile.getFileName());
        System.out.write(result.payload());
        System.out.println();
        System.out.flush();
        return result.failed() ? 1 : 0;
    }
}
