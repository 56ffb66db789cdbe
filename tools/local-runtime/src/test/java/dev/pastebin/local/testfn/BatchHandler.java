package dev.pastebin.local.testfn;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * Test-only SQS handler: a body starting with "fail" is reported in batchItemFailures, a body "throw" fails
 * the whole invocation, anything else succeeds. It logs what it saw of each record.
 */
public class BatchHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (SQSEvent.SQSMessage m : event.getRecords()) {
            context.getLogger()
                    .log("record " + m.getMessageId() + " receiveCount="
                            + m.getAttributes().get("ApproximateReceiveCount") + " source=" + m.getEventSource()
                            + " arn=" + m.getEventSourceArn() + " attr="
                            + m.getMessageAttributes().keySet() + "\n");
            if (m.getBody().equals("throw")) {
                throw new IllegalStateException("batch failure requested");
            }
            if (m.getBody().startsWith("fail")) {
                failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
            }
        }
        return new SQSBatchResponse(failures);
    }
}
