package dev.pastebin.infra.template;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The AWS services a Maven module's own code calls: the SDK service artifacts its pom.xml depends on outside the
 * test scope, and the SDK service packages its main sources import (a client can come through core).
 */
public final class SdkClients {

    /** SDK artifacts that are no service (HTTP clients, the BOM, shared runtime). */
    static final Set<String> NOT_SERVICES = Set.of(
            "bom",
            "url-connection-client",
            "apache-client",
            "netty-nio-client",
            "aws-core",
            "sdk-core",
            "auth",
            "regions");

    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);
    private static final Pattern COORDINATES =
            Pattern.compile("^\\s*<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>", Pattern.DOTALL);
    private static final Pattern IMPORT = Pattern.compile("software\\.amazon\\.awssdk\\.services\\.([a-z0-9]+)\\.");

    private SdkClients() {}

    /** The service names (the SDK's artifact and package names: s3, sqs, secretsmanager, ...) of {@code module}. */
    public static Set<String> of(Path module) {
        Set<String> services = new TreeSet<>();
        Matcher dependency = DEPENDENCY.matcher(read(module.resolve("pom.xml")));
        while (dependency.find()) {
            Matcher coordinates = COORDINATES.matcher(dependency.group(1));
            if (coordinates.find()
                    && coordinates.group(1).equals("software.amazon.awssdk")
                    && !NOT_SERVICES.contains(coordinates.group(2))
                    && !dependency.group(1).contains("<scope>test</scope>")) {
                services.add(coordinates.group(2));
            }
        }
        Path sources = module.resolve("src/main/java");
        if (Files.isDirectory(sources)) {
            try (Stream<Path> files = Files.walk(sources)) {
                files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                    Matcher imported = IMPORT.matcher(read(f));
                    while (imported.find()) {
                        services.add(imported.group(1));
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return services;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
