package dev.pastebin.benchmarks.herd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the runtime's log of a whole herd run says beyond what is sampled from outside: each create's time as the
 * create function measures it (its {@code Latency} metric, what CloudWatch charts) and as the local runtime measures
 * the invocation, in the order the creates ended; and each held delivery of the upload function (its delivery log
 * line, {@code "outcome":"held"}): first deliveries and deliveries of jobs coming back from a hold, the hold each
 * was given and its time in the function.
 *
 * <p>The client's time of a create is longer than both by the wait in front of the runtime's one environment of
 * the create function ({@code --instances 1}): the run's creators queue there, as they would not on Lambda, which
 * gives each concurrent request an environment of its own.
 */
record RuntimeLogFigures(
        List<Long> createInFunction,
        List<Long> createInvocation,
        int firstHeldDeliveries,
        int heldDeliveriesAgain,
        List<Long> holdSeconds,
        List<Long> heldDeliveryMillis) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CREATE_LINE = "[CreatePasteFunction] {\"_aws\"";
    private static final Pattern CREATE_INVOCATION =
            Pattern.compile("^CreatePasteFunction\\s+(?:POST|PUT) \\S+\\s+\\S+.*?(\\d+) ms$");

    static RuntimeLogFigures read(Path runtimeLog) throws IOException {
        List<Long> inFunction = new ArrayList<>();
        List<Long> invocation = new ArrayList<>();
        List<Long> holds = new ArrayList<>();
        List<Long> heldMillis = new ArrayList<>();
        int first = 0;
        int again = 0;
        // a reader that replaces a malformed byte (a function's cut line) rather than stopping at it
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(Files.newInputStream(runtimeLog), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith(CREATE_LINE) && line.contains("\"Latency\"")) {
                    JsonNode latency = json(line).path("Latency");
                    if (latency.isNumber()) {
                        inFunction.add(Math.round(latency.asDouble()));
                    }
                } else if (line.contains("\"outcome\":\"held\"")) {
                    JsonNode held = json(line);
                    if (held.isMissingNode()) {
                        continue;
                    }
                    if (held.path("delivery").asInt() == 1) {
                        first++;
                    } else {
                        again++;
                    }
                    holds.add(held.path("delaySeconds").asLong());
                    heldMillis.add(held.path("latencyMs").asLong());
                } else {
                    Matcher m = CREATE_INVOCATION.matcher(line);
                    if (m.matches()) {
                        invocation.add(Long.parseLong(m.group(1)));
                    }
                }
            }
        }
        return new RuntimeLogFigures(inFunction, invocation, first, again, holds, heldMillis);
    }

    /** The first {@code n} creates' times in the function: the outage's, when they were created first. */
    List<Long> firstCreatesInFunction(int n) {
        return createInFunction.subList(0, Math.min(n, createInFunction.size()));
    }

    /** The last {@code n} creates' times in the function: the baseline's, created last. */
    List<Long> lastCreatesInFunction(int n) {
        return createInFunction.subList(Math.max(0, createInFunction.size() - n), createInFunction.size());
    }

    List<Long> firstCreateInvocations(int n) {
        return createInvocation.subList(0, Math.min(n, createInvocation.size()));
    }

    List<Long> lastCreateInvocations(int n) {
        return createInvocation.subList(Math.max(0, createInvocation.size() - n), createInvocation.size());
    }

    /** The JSON object a function's line carries after its {@code [LogicalId] } prefix; empty if it has none. */
    private static JsonNode json(String line) {
        try {
            return JSON.readTree(line.substring(line.indexOf('{')));
        } catch (IOException e) {
            return JSON.missingNode();
        }
    }
}
