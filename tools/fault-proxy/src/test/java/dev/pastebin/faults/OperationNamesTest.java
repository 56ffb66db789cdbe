package dev.pastebin.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a request is named for counting: S3 from method, path and query; SQS and Secrets Manager from its target or Action. */
class OperationNamesTest {

    @Test
    void s3OperationsAreNamedFromMethodPathAndQuery() {
        assertEquals("s3.PutObject", s3("PUT", "/bucket/key", null));
        assertEquals(
                "s3.CopyObject",
                Service.S3.operation(new Request(
                        "PUT", "/bucket/key", null, Map.of("x-amz-copy-source", "/bucket/other"), new byte[0])));
        assertEquals("s3.GetObject", s3("GET", "/bucket/dir/key", null));
        assertEquals("s3.HeadObject", s3("HEAD", "/bucket/key", null));
        assertEquals("s3.DeleteObject", s3("DELETE", "/bucket/key", null));
        assertEquals("s3.DeleteObjects", s3("POST", "/bucket", "delete"));
        assertEquals("s3.ListObjectsV2", s3("GET", "/bucket", "list-type=2&prefix="));
        assertEquals("s3.ListObjects", s3("GET", "/bucket/", null));
        assertEquals("s3.CreateBucket", s3("PUT", "/bucket", null));
        assertEquals("s3.HeadBucket", s3("HEAD", "/bucket", null));
        assertEquals("s3.DeleteBucket", s3("DELETE", "/bucket", null));
        assertEquals("s3.ListBuckets", s3("GET", "/", null));
        assertEquals("s3.GetObjectTagging", s3("GET", "/bucket/key", "tagging"));
        assertEquals("s3.PutBucketLifecycle", s3("PUT", "/bucket", "lifecycle="));
        assertEquals("s3.CreateMultipartUpload", s3("POST", "/bucket/key", "uploads"));
        assertEquals("s3.UploadPart", s3("PUT", "/bucket/key", "partNumber=1&uploadId=u"));
        assertEquals("s3.CompleteMultipartUpload", s3("POST", "/bucket/key", "uploadId=u"));
        assertEquals("s3.GetObject", s3("GET", "/bucket/key", "x-id=GetObject"), "an SDK's own name wins");
    }

    @Test
    void rpcOperationsAreNamedByTargetOrAction() {
        assertEquals(
                "sqs.SendMessage",
                Service.SQS.operation(
                        new Request("POST", "/", null, Map.of("x-amz-target", "AmazonSQS.SendMessage"), new byte[0])));
        assertEquals(
                "sqs.DeleteMessageBatch",
                Service.SQS.operation(new Request(
                        "POST",
                        "/",
                        null,
                        Map.of("content-type", "application/x-www-form-urlencoded; charset=utf-8"),
                        "Action=DeleteMessageBatch&Version=2012-11-05".getBytes(StandardCharsets.UTF_8))));
        assertEquals(
                "sqs.GetQueueUrl",
                Service.SQS.operation(new Request("GET", "/", "Action=GetQueueUrl", Map.of(), new byte[0])));
        assertEquals(
                "sqs.GET /health", Service.SQS.operation(new Request("GET", "/health", null, Map.of(), new byte[0])));
    }

    @Test
    void secretsManagerOperationsAreNamedByTarget() {
        assertEquals(
                "secretsmanager.GetSecretValue",
                Service.SECRETS_MANAGER.operation(new Request(
                        "POST", "/", null, Map.of("x-amz-target", "secretsmanager.GetSecretValue"), new byte[0])));
    }

    private static String s3(String method, String path, String query) {
        return Service.S3.operation(new Request(method, path, query, Map.of(), new byte[0]));
    }
}
