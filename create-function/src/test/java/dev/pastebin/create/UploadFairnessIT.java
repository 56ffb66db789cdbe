package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.job.MalformedUploadJobException;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.support.RealServices;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Fair to every client without a fair queue (docs/design.md, "Fair to every client"): with the upload fairness delay
 * on, a heavy client's jobs beyond its backlog wait in the queue, delayed, while a quiet client's job, created after
 * them, is delivered at once: the queue (LocalStack's, which ignores the message groups) hands the worker the quiet
 * client's job before the heavy client's earlier ones. The delays are minutes long, so that nothing here depends on
 * how fast the test runs: the delayed jobs are still delayed when the quiet client's job is delivered.
 */
@RealServices
class UploadFairnessIT {

    private static final int BACKLOG = 3;

    @RegisterExtension
    static final CreateWorld world = new CreateWorld(
            "upload-fairness-it",
            Map.of(
                    "pastebin.upload-fairness.enabled", "true",
                    "pastebin.upload-fairness.backlog", String.valueOf(BACKLOG),
                    // the first job beyond the backlog waits 500 s, the next ones the longest delay, 900 s
                    "pastebin.upload-fairness.jobs-per-second", "0.002"));

    /** A client of its own: an IPv6 /64 no earlier run used, so no IN_PROGRESS row of another run counts for it. */
    private static String freshClient() {
        byte[] network = new byte[6];
        ThreadLocalRandom.current().nextBytes(network);
        String hex = HexFormat.of().formatHex(network);
        return "2001:db8:" + hex.substring(0, 4) + ":" + hex.substring(4, 8) + "::1";
    }

    private static String create(String client) {
        HttpApi.Request request = world.api
                .fixture("create-paste-text")
                .header("content-type", "text/plain; charset=utf-8")
                .textBody("fair " + UUID.randomUUID());
        request.event().getRequestContext().getHttp().setSourceIp(client);
        HttpApi.Response response = world.api.send(request);
        assertEquals(201, response.status(), response.text());
        try {
            return (String) world.json(response).get("shortCode");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long delayedOnTheQueue() {
        return Long.parseLong(world.sqs
                .getQueueAttributes(b -> b.queueUrl(world.queues.queueUrl())
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                .attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED));
    }

    @Test
    void aQuietClientsJobIsDeliveredBeforeTheHeavyClientsEarlierJobsBeyondItsBacklog() throws Exception {
        String heavy = freshClient();
        String quiet = freshClient();
        List<String> heavyPastes = new ArrayList<>();
        for (int i = 0; i < BACKLOG + 3; i++) {
            heavyPastes.add(create(heavy));
        }
        String quietPaste = create(quiet);

        List<Message> delivered = world.drainQueue();

        Set<String> deliveredPastes =
                delivered.stream().map(UploadFairnessIT::pasteOf).collect(Collectors.toSet());
        assertTrue(deliveredPastes.contains(quietPaste), "the quiet client's job was delivered: " + deliveredPastes);
        // the heavy client's first jobs, up to its backlog and the one at it, were sent at once; the rest wait
        assertEquals(Set.copyOf(heavyPastes.subList(0, BACKLOG + 1)), without(deliveredPastes, quietPaste));
        Instant until = Instant.now().plus(Duration.ofSeconds(30));
        while (delayedOnTheQueue() != 2 && Instant.now().isBefore(until)) {
            Thread.sleep(100);
        }
        assertEquals(2, delayedOnTheQueue(), "the heavy client's last two jobs wait, delayed, on the queue");
        // each row names the client its job is counted against, as the job's group does
        for (Message m : delivered) {
            String group = m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
            assertEquals(group, world.row(pasteOf(m)).uploadGroup());
        }
    }

    private static String pasteOf(Message job) {
        try {
            return world.api
                    .context()
                    .getBean(UploadJobCodec.class)
                    .decode(job.body())
                    .shortCode();
        } catch (MalformedUploadJobException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> without(Set<String> all, String one) {
        return all.stream().filter(s -> !s.equals(one)).collect(Collectors.toSet());
    }
}
