package dev.pastebin.core.logging;

import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.MDC;

/**
 * The MDC fields every JSON log line carries (docs/design.md, "Observability"): which invocation, which
 * function and, on the lines about one paste, which paste. {@link InvocationLogContext} sets the first two per
 * invocation; the code that learns a short code or a message id adds it.
 */
public final class LogContext {

    /** The Lambda invocation's request id (the Context's awsRequestId). */
    public static final String REQUEST_ID = "requestId";

    public static final String FUNCTION_NAME = "functionName";
    public static final String SHORT_CODE = "shortCode";
    /** The SQS message an upload delivery works on. */
    public static final String MESSAGE_ID = "messageId";

    private LogContext() {}

    /** The lines from here on are about this paste (until the invocation, or the message's scope, ends). */
    public static void forPaste(String shortCode) {
        MDC.put(SHORT_CODE, shortCode);
    }

    /**
     * The work on one queue message, one of several in an invocation: its lines name the message, and the paste
     * once {@link #forPaste} is called; closing removes both, so the next message's lines start clean.
     */
    public static MessageScope forMessage(String messageId) {
        MDC.put(MESSAGE_ID, messageId);
        return new MessageScope();
    }

    public static final class MessageScope implements AutoCloseable {

        private MessageScope() {}

        @Override
        public void close() {
            MDC.remove(MESSAGE_ID);
            MDC.remove(SHORT_CODE);
        }
    }

    /**
     * {@code task} running with the caller's MDC as it is now, for another thread (the MDC is per thread and a
     * new thread starts without it); the thread's MDC is cleared when the task ends.
     */
    public static <T> Callable<T> carried(Callable<T> task) {
        Map<String, String> context = MDC.getCopyOfContextMap();
        return () -> {
            if (context != null) {
                MDC.setContextMap(context);
            }
            try {
                return task.call();
            } finally {
                MDC.clear();
            }
        };
    }
}
