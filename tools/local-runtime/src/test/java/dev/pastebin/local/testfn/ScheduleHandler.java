package dev.pastebin.local.testfn;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;

/** Test-only scheduled handler: answers with what it read from the ScheduledEvent. */
public class ScheduleHandler implements RequestHandler<ScheduledEvent, String> {

    @Override
    public String handleRequest(ScheduledEvent event, Context context) {
        return event.getSource() + "|" + event.getDetailType() + "|" + event.getResources() + "|"
                + (event.getTime() != null);
    }
}
