package dev.pastebin.moderation;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * One POST to an AWS API, signed with the SDK's SigV4 signer and the default credentials (the function's role),
 * sent with the SDK's URL-connection client. Used for the two calls the outbox makes (CloudFront
 * CreateInvalidation, SNS Publish) because the SDK's cloudfront and sns modules are not available at the SDK
 * version the project's BOM pins (moderation-function/pom.xml).
 */
@Singleton
class AwsSignedCalls {

    /** Status and body of an answer. */
    record Answer(int status, String body) {
        boolean ok() {
            return status / 100 == 2;
        }
    }

    private final SdkHttpClient http = UrlConnectionHttpClient.create();
    private final AwsCredentialsProvider credentials =
            DefaultCredentialsProvider.builder().build();
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    Answer post(URI uri, String contentType, String body, String service, String region) {
        SdkHttpRequest request = SdkHttpRequest.builder()
                .method(SdkHttpMethod.POST)
                .uri(uri)
                .putHeader("Content-Type", contentType)
                .build();
        ContentStreamProvider payload = ContentStreamProvider.fromUtf8String(body);
        SignedRequest signed = signer.sign(sign -> sign.identity(credentials.resolveCredentials())
                .request(request)
                .payload(payload)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder()
                            .request(signed.request())
                            .contentStreamProvider(signed.payload().orElse(payload))
                            .build())
                    .call();
            String answer = "";
            if (response.responseBody().isPresent()) {
                try (InputStream in = response.responseBody().get()) {
                    answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return new Answer(response.httpResponse().statusCode(), answer);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @PreDestroy
    void close() {
        http.close();
    }
}
