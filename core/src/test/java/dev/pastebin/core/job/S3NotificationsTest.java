package dev.pastebin.core.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.core.paste.ContentHash;
import io.micronaut.serde.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * S3's notifications told apart from upload jobs and anything else in the upload queue, on the bodies S3 sends
 * (event version 2.1, as AWS documents it: "Event message structure"). What a real bucket sends is
 * LargeFileVerificationIT's and DeadLetterReevaluationIT's.
 */
class S3NotificationsTest {

    private final S3Notifications notifications = new S3Notifications(ObjectMapper.getDefault());

    @Test
    void anObjectCreatedRecordNamesItsBucketAndItsKeyDecoded() {
        // S3 URL-encodes the key as a form does: a space as "+", other characters as %XX
        String body = notification("ObjectCreated:Put", "pastebin-pastes", "staging/aB3x+Yz%C3%A4/0");

        assertEquals(
                Optional.of(new S3Notifications.Notification(
                        false, List.of(new S3Notifications.CreatedObject("pastebin-pastes", "staging/aB3x Yzä/0")))),
                notifications.parse(body));
    }

    @Test
    void s3sTestEventIsOneWithNothingCreated() {
        String body = """
                {"Service":"Amazon S3","Event":"s3:TestEvent","Time":"2026-12-06T23:00:00.000Z",\
                "Bucket":"pastebin-pastes","RequestId":"5582815E1AEA5ADF","HostId":"8cLeGAmw098X5cv4Zkwcmo8vvZa3eH3e"}""";

        assertEquals(Optional.of(new S3Notifications.Notification(true, List.of())), notifications.parse(body));
    }

    @Test
    void aRecordOfAnotherEventIsNoCreatedObject() {
        String body = notification("ObjectRemoved:Delete", "pastebin-pastes", "staging/aB3xYz9Q/0");

        assertEquals(Optional.of(new S3Notifications.Notification(false, List.of())), notifications.parse(body));
    }

    @Test
    void anUploadJobIsNone() {
        byte[] content = "a small paste".getBytes(StandardCharsets.UTF_8);
        String job = new UploadJobCodec(ObjectMapper.getDefault())
                .encode(new UploadJob("aB3xYz9Q", ContentHash.sha256Hex(content), content));

        assertEquals(Optional.empty(), notifications.parse(job));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "not json, \"Records\"",
                "[\"Records\"]",
                "{\"Records\": \"s3:TestEvent\"}",
                "{\"Records\": [{\"eventSource\": \"aws:sns\", \"eventName\": \"ObjectCreated:Put\"}]}",
                "{\"Event\": \"s3:SomethingElse\"}"
            })
    void anythingElseIsNone(String body) {
        assertEquals(Optional.empty(), notifications.parse(body));
    }

    @Test
    void noBodyIsNone() {
        assertEquals(Optional.empty(), notifications.parse(null));
    }

    /** One record as S3 sends it to SQS. */
    private static String notification(String eventName, String bucket, String encodedKey) {
        return """
                {"Records":[{"eventVersion":"2.1","eventSource":"aws:s3","awsRegion":"eu-central-1",\
                "eventTime":"2026-12-06T23:00:00.000Z","eventName":"%s",\
                "userIdentity":{"principalId":"AWS:AROAEXAMPLE:create"},"requestParameters":{"sourceIPAddress":"203.0.113.7"},\
                "responseElements":{"x-amz-request-id":"C3D13FE58DE4C810","x-amz-id-2":"FMyUVURIY8/IgAtTv8xRjskZQpcIZ9KG"},\
                "s3":{"s3SchemaVersion":"1.0","configurationId":"staged-files",\
                "bucket":{"name":"%s","ownerIdentity":{"principalId":"A3NL1KOZZKExample"},\
                "arn":"arn:aws:s3:::%s"},\
                "object":{"key":"%s","size":1024,"eTag":"d41d8cd98f00b204e9800998ecf8427e","sequencer":"0055AED6DCD90281E5"}}}]}""".formatted(eventName, bucket, bucket, encodedKey);
    }
}
