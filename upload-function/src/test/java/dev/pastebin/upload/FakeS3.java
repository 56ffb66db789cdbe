package dev.pastebin.upload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * The S3 calls the upload worker makes, in memory: PutObject stores the bytes by key unless a failure
 * was queued for it; DeleteObject and DeleteObjects remove them. Real S3 behaviour is tested against LocalStack.
 */
final class FakeS3 implements S3Client {

    final Map<String, byte[]> objects = new ConcurrentHashMap<>();
    private final Deque<RuntimeException> putFailures = new ArrayDeque<>();
    volatile int puts;

    /** The next PutObject calls throw these, in order. */
    synchronized FakeS3 failPuts(RuntimeException... failures) {
        putFailures.addAll(java.util.List.of(failures));
        return this;
    }

    @Override
    public synchronized PutObjectResponse putObject(PutObjectRequest request, RequestBody body) {
        puts++;
        beforePut.run();
        if (!putFailures.isEmpty()) {
            throw putFailures.removeFirst();
        }
        try (var in = body.contentStreamProvider().newStream()) {
            objects.put(request.bucket() + "/" + request.key(), in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return PutObjectResponse.builder().build();
    }

    /** Every DeleteObject call throws this, when set. */
    volatile RuntimeException deleteFailure;
    /** Runs just before a PutObject is answered: what another delivery does meanwhile. */
    volatile Runnable beforePut = () -> {};

    @Override
    public DeleteObjectResponse deleteObject(DeleteObjectRequest request) {
        if (deleteFailure != null) {
            throw deleteFailure;
        }
        objects.remove(request.bucket() + "/" + request.key());
        return DeleteObjectResponse.builder().build();
    }

    /** DeleteObjects: removes every key, or throws {@link #deleteFailure} when set. */
    @Override
    public DeleteObjectsResponse deleteObjects(DeleteObjectsRequest request) {
        if (deleteFailure != null) {
            throw deleteFailure;
        }
        request.delete().objects().forEach(o -> objects.remove(request.bucket() + "/" + o.key()));
        return DeleteObjectsResponse.builder().build();
    }

    @Override
    public String serviceName() {
        return "s3";
    }

    @Override
    public void close() {}
}
