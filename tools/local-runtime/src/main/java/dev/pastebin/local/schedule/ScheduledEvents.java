package dev.pastebin.local.schedule;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.local.Json;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/** The EventBridge "Scheduled Event" a {@code Schedule} rule delivers to its target. */
public final class ScheduledEvents {

    private ScheduledEvents() {}

    public static ObjectNode event(String ruleArn, String accountId, String region, Instant time) {
        ObjectNode event = Json.object();
        event.put("version", "0");
        event.put("id", UUID.randomUUID().toString());
        event.put("detail-type", "Scheduled Event");
        event.put("source", "aws.events");
        event.put("account", accountId);
        event.put("time", time.truncatedTo(ChronoUnit.SECONDS).toString());
        event.put("region", region);
        event.putArray("resources").add(ruleArn);
        event.putObject("detail");
        return event;
    }

    /** The rule SAM creates for a function's Schedule event is named after the function and the event. */
    public static String ruleArn(String region, String accountId, String functionId, String eventName) {
        return "arn:aws:events:" + region + ":" + accountId + ":rule/" + functionId + eventName;
    }
}
