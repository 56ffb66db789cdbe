package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The upload job's message group, by which an SQS fair queue tells clients apart (docs/design.md, "The upload
 * queue's groups"): one per client address as the system derives it (API Gateway's source address here, with no
 * edge in front), never a header the client sets, an IPv6 /64 counting as one client, and never the address itself.
 */
@RealServices
class UploadGroupsIT {

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("upload-groups-it");

    private static HttpApi.Request from(String sourceIp) {
        HttpApi.Request request = world.api
                .fixture("create-paste-text")
                .header("content-type", "text/plain; charset=utf-8")
                .textBody("grouped " + UUID.randomUUID());
        request.event().getRequestContext().getHttp().setSourceIp(sourceIp);
        return request;
    }

    /** The message group of the one job {@code request}'s create queued. */
    private static String groupOf(HttpApi.Request request) {
        HttpApi.Response response = world.api.send(request);
        assertEquals(201, response.status(), response.text());
        List<Message> jobs = world.drainQueue();
        assertEquals(1, jobs.size(), "one job queued");
        String group = jobs.getFirst().attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
        assertNotNull(group, "the job was sent with a MessageGroupId");
        return group;
    }

    @Test
    void twoCreatesFromOneAddressShareAGroupAndAnotherAddressHasItsOwn() {
        String first = groupOf(from("198.51.100.7"));

        assertEquals(first, groupOf(from("198.51.100.7")));
        assertNotEquals(first, groupOf(from("198.51.100.8")));
    }

    @Test
    void theGroupDoesNotShowTheAddress() {
        String group = groupOf(from("198.51.100.7"));

        assertTrue(!group.contains("198.51.100.7") && group.length() <= 128, group);
    }

    @Test
    void aForwardedForTheClientSetsWithoutTheEdgeChangesNothing() {
        String direct = groupOf(from("198.51.100.7"));

        assertEquals(direct, groupOf(from("198.51.100.7").header("X-Forwarded-For", "203.0.113.50")));
        assertEquals(direct, groupOf(from("198.51.100.7").header("X-Forwarded-For", "203.0.113.51, 198.51.100.7")));
    }

    @Test
    void anIpv6SlashSixtyFourIsOneClient() {
        String host = groupOf(from("2001:db8:1:2::1"));

        assertEquals(host, groupOf(from("2001:db8:1:2:ffff:eeee:dddd:cccc")));
        assertNotEquals(host, groupOf(from("2001:db8:1:3::1")));
    }
}
