package dev.pastebin.edgeacl;

/**
 * The Reason of an answer: one line, short. CloudFormation shows it in the stack's events, and the whole answer must
 * stay within the response object's 4 KB.
 */
final class Reasons {

    static final int MAX_LENGTH = 400;
    private static final String ELLIPSIS = "...";

    private Reasons() {}

    static String shorten(String reason) {
        String line = reason == null ? "" : reason.strip().replaceAll("\\s+", " ");
        if (line.isEmpty()) {
            return "no reason given";
        }
        return line.length() <= MAX_LENGTH ? line : line.substring(0, MAX_LENGTH - ELLIPSIS.length()) + ELLIPSIS;
    }

    /** An exception as a reason: its type and message, and its cause's when they differ. */
    static String of(Throwable e) {
        StringBuilder reason = new StringBuilder(e.getClass().getSimpleName());
        if (e.getMessage() != null) {
            reason.append(": ").append(e.getMessage());
        }
        Throwable cause = e.getCause();
        if (cause != null && cause.getMessage() != null && !cause.getMessage().equals(e.getMessage())) {
            reason.append(" (").append(cause.getMessage()).append(')');
        }
        return shorten(reason.toString());
    }
}
