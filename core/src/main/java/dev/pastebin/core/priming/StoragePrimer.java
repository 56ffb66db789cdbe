package dev.pastebin.core.priming;

import dev.pastebin.core.config.StorageProperties;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.io.InputStream;
import java.util.Optional;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@code GetObject} of a paste key that no paste has: builds the S3 client's request path, signing and
 * connection with the rights the functions already hold on the paste prefix (HeadBucket would need
 * {@code s3:ListBucket}, which could list every short code). The answer is NoSuchKey, or 403 for a function
 * that may not read objects (upload); either means the whole path ran. A missing bucket is a failure.
 *
 * <p>A read's success answer takes another path (the response's header unmarshalling, whose model class
 * spins some eighty lambdas on first use, and the date parsing of {@code Last-Modified}), which no object
 * that exists can prime without touching a user's paste. So the same request is sent once more with
 * S3's answer replaced in-process, before the SDK looks at it, by an empty object's
 * ({@link EmptyObjectAnswer}): the client then unmarshals a success. Nothing is stored or read.
 */
@Singleton
@Requires(classes = S3Client.class)
@Requires(beans = S3Client.class)
// The create function carries S3 only to pre-sign large pastes' uploads and never calls it: nothing to prime there.
@Requires(property = StoragePrimer.ENABLED, notEquals = "false")
public class StoragePrimer implements Primer {

    /** {@code false} where the function never calls S3 (the create function's application.yml). */
    public static final String ENABLED = "pastebin.priming.storage";

    /** Not a short code (those are alphanumeric), so never a paste's key. */
    static final String KEY_OF_NO_PASTE = "priming-no-such-paste";

    /** Adds {@link EmptyObjectAnswer} to one request's client configuration. */
    private static final SdkPlugin ANSWER_AS_EMPTY_OBJECT =
            config -> config.overrideConfiguration(config.overrideConfiguration().toBuilder()
                    .addExecutionInterceptor(new EmptyObjectAnswer())
                    .build());

    private final S3Client s3;
    private final StorageProperties storage;

    public StoragePrimer(S3Client s3, StorageProperties storage) {
        this.s3 = s3;
        this.storage = storage;
    }

    @Override
    public String name() {
        return "storage (GetObject of no paste; its success answer in-process)";
    }

    @Override
    public void prime() {
        try {
            s3.getObjectAsBytes(request().build());
        } catch (NoSuchKeyException expected) {
            // the answer for a key nobody stored
        } catch (S3Exception e) {
            if (e.statusCode() != 403) {
                throw e;
            }
        }
        byte[] content = s3.getObjectAsBytes(request()
                        .overrideConfiguration(o -> o.addPlugin(ANSWER_AS_EMPTY_OBJECT))
                        .build())
                .asByteArray();
        if (content.length != 0) {
            throw new IllegalStateException("the in-process answer was not the empty object");
        }
    }

    private GetObjectRequest.Builder request() {
        return GetObjectRequest.builder().bucket(storage.bucket()).key(storage.keyPrefix() + KEY_OF_NO_PASTE);
    }

    /** Replaces S3's answer with that of an empty text object (status, the headers S3 sends, no body). */
    static final class EmptyObjectAnswer implements ExecutionInterceptor {

        @Override
        public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            return SdkHttpResponse.builder()
                    .statusCode(200)
                    .statusText("OK")
                    .putHeader("Content-Length", "0")
                    .putHeader("Content-Type", "text/plain; charset=utf-8")
                    .putHeader("ETag", "\"d41d8cd98f00b204e9800998ecf8427e\"")
                    .putHeader("Last-Modified", "Mon, 23 Nov 2026 00:00:00 GMT")
                    .putHeader("x-amz-server-side-encryption", "AES256")
                    // objects are stored with their SHA-256 as the S3 checksum (PasteContentStore), so a
                    // read validates it: this is the empty body's
                    .putHeader("x-amz-checksum-sha256", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
                    .putHeader("x-amz-checksum-type", "FULL_OBJECT")
                    .build();
        }

        @Override
        public Optional<InputStream> modifyHttpResponseContent(
                Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            return Optional.of(InputStream.nullInputStream());
        }
    }
}
