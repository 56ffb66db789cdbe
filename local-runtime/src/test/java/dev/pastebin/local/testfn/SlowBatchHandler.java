package dev.pastebin.local.testfn;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;

/**
 * Test-only SQS handler that takes two seconds per batch and logs when it started and ended, and in which
 * process: "batch <body> pid=<pid> start=<epoch ms> end=<epoch ms>".
 */
public class SlowBatchHandler implements RequestHandler<SQSEvent, Void> {

    @Override
    public Void handleRequest(SQSEvent event, Context context) {
        long start = System.currentTimeMillis();
        try {
            Thread.sleep(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (SQSEvent.SQSMessage m : event.getRecords()) {
            context.getLogger().log("batch " + m.getBody() + " pid=" + ProcessHandle.current().pid() + " start=" + start
                    + " end=" + System.currentTimeMillis() + "\n");
        }
        return null;
    }
}
