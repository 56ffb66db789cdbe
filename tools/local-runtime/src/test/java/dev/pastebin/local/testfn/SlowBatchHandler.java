package dev.pastebin.local.testfn;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Test-only SQS handler for the concurrency test. Each batch marks itself as running in a directory named after
 * its queue, then waits until a second batch is running too (up to {@link #MEETING_WAIT}), so two batches in flight
 * at once are proven by their meeting rather than by a race against a cold start. It logs
 * "batch <body> pid=<pid> met=<the other batch's body, or none>".
 */
public class SlowBatchHandler implements RequestHandler<SQSEvent, Void> {

    /** Generous: the second environment's JVM may start slowly on a busy machine. */
    static final Duration MEETING_WAIT = Duration.ofSeconds(90);

    @Override
    public Void handleRequest(SQSEvent event, Context context) {
        for (SQSEvent.SQSMessage m : event.getRecords()) {
            Path meetingPlace = meetingPlace(m.getEventSourceArn());
            String met = meet(meetingPlace, m.getBody());
            context.getLogger()
                    .log("batch " + m.getBody() + " pid="
                            + ProcessHandle.current().pid() + " met=" + met + "\n");
        }
        return null;
    }

    /** The directory where batches of one queue meet; the test removes it. */
    public static Path meetingPlace(String queueArn) {
        return Path.of(
                System.getProperty("java.io.tmpdir"),
                "slow-batch-" + queueArn.substring(queueArn.lastIndexOf(':') + 1));
    }

    private static String meet(Path meetingPlace, String me) {
        try {
            Files.createDirectories(meetingPlace);
            Files.writeString(meetingPlace.resolve(me), "running");
            long deadline = System.nanoTime() + MEETING_WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                try (Stream<Path> running = Files.list(meetingPlace)) {
                    var other = running.map(p -> p.getFileName().toString())
                            .filter(name -> !name.equals(me))
                            .findFirst();
                    if (other.isPresent()) {
                        return other.get();
                    }
                }
                Thread.sleep(50);
            }
            return "none";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "none";
        }
    }
}
