package dev.pastebin.migrate;

import java.util.ArrayList;
import java.util.List;

/** The Reason of an answer to CloudFormation: short (it is shown in the stack's events) and never a secret. */
final class Reasons {

    /** CloudFormation's limit for the whole response is 4 KB; its console cuts a Reason well before 1,000. */
    static final int MAX_LENGTH = 900;

    private static final String CUT = " [...]";

    private Reasons() {}

    /** {@code reason} as is when it fits, else its beginning and a mark that it was cut. */
    static String shorten(String reason) {
        String oneLine = reason == null || reason.isBlank() ? "no reason given" : reason.strip();
        oneLine = oneLine.replaceAll("\\s*\\R\\s*", " ");
        if (oneLine.length() <= MAX_LENGTH) {
            return oneLine;
        }
        return oneLine.substring(0, MAX_LENGTH - CUT.length()) + CUT;
    }

    /**
     * What went wrong, from the outermost message to the root cause's, each once: "outer: cause: root cause".
     * Exceptions without a message give their class name.
     */
    static String describe(Throwable failure) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 10; t = t.getCause(), depth++) {
            String message = t.getMessage() == null || t.getMessage().isBlank()
                    ? t.getClass().getSimpleName()
                    : t.getMessage().strip();
            if (parts.stream().noneMatch(earlier -> earlier.contains(message))) {
                parts.add(message);
            }
        }
        return String.join(": ", parts);
    }
}
