package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.create.ClientAddress;
import dev.pastebin.api.create.UploadGroup;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The create function behind the CloudFront edge (docs/design.md, "Edge"): the paste's URL names the host the
 * client addressed (the edge's X-Forwarded-Host), not API Gateway's; a request around the edge does nothing.
 */
@RealServices
class CreateBehindEdgeIT {

    private static final String SECRET = "edgeSecret0123456789abcdefghij";
    private static final String API_HOST = "https://abc123.execute-api.us-east-1.amazonaws.com";

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("create-edge-it", Map.of("pastebin.edge.origin-secret", SECRET));

    private static HttpApi.Request throughTheEdge() {
        return world.api
                .fixture("create-paste-text")
                .header("X-Origin-Verify", SECRET)
                .header("X-Forwarded-Host", "paste.example.org");
    }

    @Test
    void thePastesUrlNamesTheHostTheClientAddressed() throws Exception {
        HttpApi.Response response = world.api.send(throughTheEdge());

        assertEquals(201, response.status(), response.text());
        String code = (String) world.json(response).get("shortCode");
        assertEquals(
                "https://paste.example.org/pastes/" + code, world.json(response).get("url"));
        assertEquals(1, world.drainQueue().size());
    }

    @Test
    void aCommandLineClientGetsTheSameUrl() {
        HttpApi.Response response = world.api.send(throughTheEdge()
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "*/*")
                .textBody("content=hello"));

        assertEquals(
                200, response.status(), response.text()); // a form's URL line is 200, as 0x0.st and rustypaste answer
        assertTrue(response.text().matches("https://paste\\.example\\.org/pastes/[0-9A-Za-z]{11}\n"), response.text());
    }

    @Test
    void aRequestAroundTheEdgeStoresNothing() {
        HttpApi.Response response =
                world.api.send(world.api.fixture("create-paste-text").header("X-Forwarded-Host", "evil.example"));

        assertEquals(403, response.status(), response.text());
        assertTrue(response.text().contains("\"code\":\"EDGE_REQUIRED\""), response.text());
        assertEquals(0, world.drainQueue().size(), "no job queued");
    }

    /** Without the edge (no secret configured) anyone can send X-Forwarded-Host: it is ignored. */
    @Test
    void withoutTheEdgeAForwardedHostIsIgnored() throws Exception {
        try (HttpApi direct = HttpApi.start(Map.of("pastebin.upload-queue.url", world.queues.queueUrl()))) {
            HttpApi.Response response =
                    direct.send(direct.fixture("create-paste-text").header("X-Forwarded-Host", "evil.example"));

            assertEquals(201, response.status(), response.text());
            String code = (String) world.json(response).get("shortCode");
            assertEquals(API_HOST + "/pastes/" + code, world.json(response).get("url"));
        }
        world.drainQueue();
    }

    /**
     * Through the edge the job's group is the viewer's: the address CloudFront appended to X-Forwarded-For, not
     * CloudFront's own connection (docs/design.md, "The upload queue's groups").
     */
    @Test
    void throughTheEdgeTheJobsGroupIsTheViewers() {
        assertEquals(
                UploadGroup.of(new ClientAddress("203.0.113.7")).id(),
                groupOf(throughTheEdge().header("X-Forwarded-For", "203.0.113.7")));
        assertEquals(
                UploadGroup.of(new ClientAddress("203.0.113.8")).id(),
                groupOf(throughTheEdge().header("X-Forwarded-For", "198.51.100.1, 203.0.113.8")));
    }

    private static String groupOf(HttpApi.Request request) {
        HttpApi.Response response = world.api.send(request);
        assertEquals(201, response.status(), response.text());
        List<Message> jobs = world.drainQueue();
        assertEquals(1, jobs.size(), "one job queued");
        return jobs.getFirst().attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
    }
}
