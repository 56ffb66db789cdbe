package dev.pastebin.upload;

import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.storage.LargeFileProperties;
import dev.pastebin.core.storage.LargeFileStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * A client's uploads of a large paste's files to staging/, with URLs pre-signed as the create function signs them, by
 * the test's own signer straight to LocalStack (the function's S3 goes through the fault proxy).
 */
final class StagedUploads {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final LargeFileStore presigning;

    StagedUploads(UploadWorld world) {
        presigning = new LargeFileStore(
                UploadWorld.S3,
                new StorageProperties(world.bucket, "pastes/"),
                world.context.getBean(LargeFileProperties.class));
    }

    /** The PUT a client sends to the create's URL: size, Content-Type and SHA-256 signed. */
    HttpResponse<String> put(PasteFile file, byte[] content) throws Exception {
        LargeFileStore.PresignedRequest upload =
                presigning.presignUpload(file.fileId(), file.sizeBytes(), file.sha256(), file.contentType());
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create(upload.url().toString()))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content));
        upload.headers().forEach((name, values) -> {
            // the HTTP client sets Content-Length from the body itself (a restricted header)
            if (!name.equalsIgnoreCase("content-length")) {
                request.header(name, String.join(",", values));
            }
        });
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The PUT curl -T sends after the create's redirect: only the size signed, no Content-Type, no checksum. */
    HttpResponse<String> putUnsigned(PasteFile file, byte[] content) throws Exception {
        LargeFileStore.PresignedRequest upload = presigning.presignUpload(file.fileId(), file.sizeBytes(), null, null);
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(upload.url().toString()))
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(content))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
