package dev.pastebin.customresource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * The HTTP client Powertools PUTs the answer with, made to say when S3 refused it: a status other than 2xx is an
 * {@link IOException} naming the status (and S3's error code when its answer has one), which Powertools treats as a
 * send failure ({@code onSendFailure}). Powertools 2.9.0 ignores the status, so without this a refused answer
 * (403 from a VPC endpoint policy, an expired URL) ends the invocation as if CloudFormation had heard it.
 */
final class ResponseUrlClient implements SdkHttpClient {

    /** How much of S3's error document is read for its code: the document is a few hundred bytes. */
    private static final int ERROR_BODY_LIMIT = 4096;

    private static final Pattern S3_ERROR_CODE = Pattern.compile("<Code>([A-Za-z0-9.]{1,64})</Code>");

    private final SdkHttpClient delegate;

    ResponseUrlClient(SdkHttpClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        ExecutableHttpRequest call = delegate.prepareRequest(request);
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() throws IOException {
                HttpExecuteResponse response = call.call();
                SdkHttpResponse http = response.httpResponse();
                if (http.isSuccessful()) {
                    return response;
                }
                Optional<String> code = s3ErrorCode(response);
                throw new IOException("the ResponseURL answered HTTP " + http.statusCode()
                        + http.statusText().map(text -> " " + text).orElse("")
                        + code.map(c -> " (S3 error " + c + ")").orElse(""));
            }

            @Override
            public void abort() {
                call.abort();
            }
        };
    }

    private static Optional<String> s3ErrorCode(HttpExecuteResponse response) {
        if (response.responseBody().isEmpty()) {
            return Optional.empty();
        }
        try (InputStream body = response.responseBody().get()) {
            String document = new String(body.readNBytes(ERROR_BODY_LIMIT), StandardCharsets.UTF_8);
            Matcher m = S3_ERROR_CODE.matcher(document);
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public String clientName() {
        return delegate.clientName();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
