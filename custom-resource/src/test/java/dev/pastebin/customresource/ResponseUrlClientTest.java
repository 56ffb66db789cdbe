package dev.pastebin.customresource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.customresource.support.ResponseUrl;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

class ResponseUrlClientTest {

    private static HttpExecuteRequest put(ResponseUrl to) {
        byte[] body = "{\"Status\":\"SUCCESS\"}".getBytes(StandardCharsets.UTF_8);
        return HttpExecuteRequest.builder()
                .request(SdkHttpRequest.builder()
                        .uri(to.uri("/answer?X-Amz-Signature=abc"))
                        .method(SdkHttpMethod.PUT)
                        .putHeader("Content-Length", Integer.toString(body.length))
                        .build())
                .contentStreamProvider(() -> new ByteArrayInputStream(body))
                .build();
    }

    @Test
    void anAcceptedPutIsTheResponse() throws Exception {
        try (ResponseUrl accepting = new ResponseUrl(200);
                var client = new ResponseUrlClient(UrlConnectionHttpClient.create())) {
            assertEquals(
                    200,
                    client.prepareRequest(put(accepting)).call().httpResponse().statusCode());
            assertEquals("/answer", accepting.next().path());
        }
    }

    @Test
    void aRefusedPutIsAnIoExceptionNamingTheStatusAndS3sCode() throws Exception {
        try (ResponseUrl refusing = new ResponseUrl(403);
                var client = new ResponseUrlClient(UrlConnectionHttpClient.create())) {
            IOException refused = assertThrows(
                    IOException.class,
                    () -> client.prepareRequest(put(refusing)).call());
            assertTrue(refused.getMessage().contains("HTTP 403"), refused.getMessage());
            assertTrue(refused.getMessage().contains("S3 error AccessDenied"), refused.getMessage());
        }
    }

    @Test
    void theLoggedUrlHasNoSignature() {
        assertEquals(
                "https://cloudformation-custom-resource-response-euwest1.s3.amazonaws.com/arn%3Aaws/x",
                CustomResourceHandler.withoutQuery(
                        "https://cloudformation-custom-resource-response-euwest1.s3.amazonaws.com/arn%3Aaws/x"
                                + "?X-Amz-Signature=0123&X-Amz-Credential=AKIA"));
    }
}
