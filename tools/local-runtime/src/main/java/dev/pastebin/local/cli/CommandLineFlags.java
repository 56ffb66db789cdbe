package dev.pastebin.local.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command-line flags of the local runtime and of local invoke. Both {@code --port 3001} and
 * {@code --port=3001} work; anything that is not a flag is returned as a positional argument.
 * {@code --parameter-overrides}, {@code --physical-name} and {@code --env-vars} may be given more than once, a later
 * value winning: the run command gives the local settings, and its caller can add a file of its own on top.
 */
public final class CommandLineFlags {

    private static final Set<String> VALUE_FLAGS = new TreeSet<>(List.of(
            "--host",
            "--port",
            "--template",
            "--env-vars",
            "--parameter-overrides",
            "--physical-name",
            "--instances",
            "--schedule-interval",
            "--function-java-home",
            "--ric-lib",
            "--work-dir",
            "--region",
            "--account-id",
            "--dashboard",
            "--init-timeout",
            "--class-archives"));
    /** The environment variable that sets {@code --init-timeout} for every runtime a command starts (the test command's). */
    static final String INIT_TIMEOUT_VARIABLE = "PASTEBIN_LOCAL_INIT_TIMEOUT";
    /** The environment variable that sets {@code --class-archives} for every runtime a command starts (the test command's). */
    static final String CLASS_ARCHIVES_VARIABLE = "PASTEBIN_LOCAL_CLASS_ARCHIVES";

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    public record Parsed(RuntimeSettings settings, List<String> positional) {}

    private CommandLineFlags() {}

    /** @param environment supplies the region default (AWS_REGION), as the AWS SDK reads it */
    public static Parsed parse(String[] args, Map<String, String> environment) {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> parameterOverrides = new LinkedHashMap<>();
        Map<String, String> physicalNames = new LinkedHashMap<>();
        List<Path> envVars = new ArrayList<>();
        List<String> positional = new ArrayList<>();
        boolean lazy = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--lazy")) {
                lazy = true;
                continue;
            }
            if (!arg.startsWith("--")) {
                positional.add(arg);
                continue;
            }
            int eq = arg.indexOf('=');
            String flag = eq < 0 ? arg : arg.substring(0, eq);
            if (!VALUE_FLAGS.contains(flag)) {
                throw new IllegalArgumentException(
                        "unknown option " + flag + "; known: " + VALUE_FLAGS + " and --lazy");
            }
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            switch (flag) {
                case "--parameter-overrides" -> parameterOverrides.putAll(pairs(flag, value, "\\s+"));
                case "--physical-name" -> physicalNames.putAll(pairs(flag, value, ","));
                case "--env-vars" -> envVars.add(Path.of(value));
                default -> values.put(flag, value);
            }
        }
        RuntimeSettings settings = new RuntimeSettings(
                values.getOrDefault("--host", "127.0.0.1"),
                Integer.parseInt(values.getOrDefault("--port", "3000")),
                Path.of(values.getOrDefault("--template", "template.yaml")),
                envVars,
                parameterOverrides,
                physicalNames,
                values.containsKey("--ric-lib") ? Path.of(values.get("--ric-lib")) : besideTheRuntime("ric-lib"),
                path(values.get("--work-dir")),
                Integer.parseInt(values.getOrDefault("--instances", "1")),
                !lazy,
                values.containsKey("--schedule-interval") ? duration(values.get("--schedule-interval")) : null,
                values.getOrDefault("--region", environment.getOrDefault("AWS_REGION", "us-east-1")),
                values.getOrDefault("--account-id", "000000000000"),
                path(values.get("--function-java-home")),
                path(values.get("--dashboard")),
                initTimeout(values.get("--init-timeout"), environment.get(INIT_TIMEOUT_VARIABLE)),
                recordCallsDir(environment.get(CallRecording.DIRECTORY_VARIABLE)),
                besideTheRuntime(CallRecording.LIB),
                classArchives(values.get("--class-archives"), environment.get(CLASS_ARCHIVES_VARIABLE)));
        return new Parsed(settings, positional);
    }

    /** The flag's value, else the environment's, else {@link RuntimeSettings#DEFAULT_INIT_TIMEOUT}. */
    private static Duration initTimeout(String flag, String variable) {
        if (flag != null) {
            return duration(flag);
        }
        return variable != null && !variable.isBlank() ? duration(variable) : RuntimeSettings.DEFAULT_INIT_TIMEOUT;
    }

    /** The flag's directory, else the environment's, absolute; null when neither is set. */
    private static Path classArchives(String flag, String variable) {
        String directory = flag != null ? flag : variable;
        return directory == null || directory.isBlank()
                ? null
                : Path.of(directory).toAbsolutePath();
    }

    /** The recording directory, absolute (the function processes run in their task roots); null when unset. */
    private static Path recordCallsDir(String variable) {
        return variable == null || variable.isBlank() ? null : Path.of(variable).toAbsolutePath();
    }

    /** {@code 500ms}, {@code 60s}, {@code 5m}, {@code 1h}, {@code 1d}, or ISO-8601 ({@code PT1M}). */
    static Duration duration(String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return Duration.parse(text);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /** {@code K=V} pairs separated by {@code separator}; SAM's {@code ParameterKey=K,ParameterValue=V} too. */
    private static Map<String, String> pairs(String flag, String value, String separator) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher samStyle =
                Pattern.compile("ParameterKey=([^,]+),ParameterValue=(\\S*)").matcher(value);
        if (samStyle.find()) {
            do {
                out.put(samStyle.group(1), samStyle.group(2));
            } while (samStyle.find());
            return out;
        }
        for (String pair : value.trim().split(separator)) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(flag + " takes Name=value pairs, got '" + pair + "'");
            }
            out.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return out;
    }

    private static Path path(String value) {
        return value == null ? null : Path.of(value);
    }

    /** target/{@code name} beside the runtime's own jar (or classes directory), where the build puts it. */
    private static Path besideTheRuntime(String name) {
        try {
            Path location = Path.of(CommandLineFlags.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            return location.getParent().resolve(name);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
