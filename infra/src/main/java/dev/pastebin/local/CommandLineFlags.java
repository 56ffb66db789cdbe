package dev.pastebin.local;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command-line flags of the local runtime and of local invoke, mapped onto {@code pastebin.local.*}
 * properties. Both {@code --port 3001} and {@code --port=3001} work; anything else that is not a flag is
 * returned as a positional argument.
 */
final class CommandLineFlags {

    static final Map<String, String> FLAGS = Map.of(
            "--host", "pastebin.local.host",
            "--port", "pastebin.local.port",
            "--root", "pastebin.local.root",
            "--template", "pastebin.local.template",
            "--instances", "pastebin.local.instances",
            "--function-java-home", "pastebin.local.java-home",
            "--schedule-interval", "pastebin.local.schedule-interval",
            "--sweep-interval", "pastebin.local.schedule-interval");

    record Parsed(Map<String, Object> properties, List<String> positional) {
    }

    private CommandLineFlags() {
    }

    static Parsed parse(String[] args) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--lazy")) {
                properties.put("pastebin.local.eager", "false");
                continue;
            }
            if (!arg.startsWith("--")) {
                positional.add(arg);
                continue;
            }
            int eq = arg.indexOf('=');
            String flag = eq < 0 ? arg : arg.substring(0, eq);
            String property = FLAGS.get(flag);
            if (property == null) {
                throw new IllegalArgumentException("unknown option " + flag + "; known: " + FLAGS.keySet() + " and --lazy");
            }
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            properties.put(property, value);
        }
        return new Parsed(properties, positional);
    }
}
