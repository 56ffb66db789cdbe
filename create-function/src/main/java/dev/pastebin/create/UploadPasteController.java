package dev.pastebin.create;

import dev.pastebin.api.create.CreateLargePasteService;
import dev.pastebin.api.create.PasteOptions;
import dev.pastebin.core.paste.InvalidIdempotencyKeyException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Put;

/**
 * {@code PUT /{name}}, transfer.sh's shape: {@code curl -L -T big.iso https://host/} (curl appends the file's name to
 * a URL ending in {@code /}) creates a one-file large paste (docs/design.md, "Large files: straight to S3") named
 * after the path, of the request's Content-Length, and answers 307 to the file's pre-signed PUT, which curl follows
 * with the same method, body and headers. The body of this request is never read: API Gateway hands it to the
 * function, which ignores it. The paste's URL, short code and deletion token are in headers, where {@code curl -i}
 * or {@code -D -} shows them beside the redirect, and in a short text/plain body. Maps HTTP to
 * {@link CreateLargePasteService}, nothing more; documented in docs/openapi.yaml.
 */
@Controller
public class UploadPasteController {

    /** S3's header for a body's SHA-256 (base64): signed into the upload when the client sends it. */
    static final String CHECKSUM_SHA256 = "x-amz-checksum-sha256";

    private final CreateLargePasteService service;
    private final LargePasteReader reader;

    public UploadPasteController(CreateLargePasteService service, LargePasteReader reader) {
        this.service = service;
        this.reader = reader;
    }

    /**
     * The path's variable is the file's name. It is called {@code shortCode} because {@code GET /{shortCode}} is the
     * same path, and OpenAPI (the HTTP API's definition SAM writes, and docs/openapi.yaml) takes one variable name
     * per path.
     */
    @Put(uri = "/{shortCode}", consumes = MediaType.ALL, produces = MediaType.TEXT_PLAIN)
    public HttpResponse<String> upload(
            @PathVariable("shortCode") String name,
            @Header(CreatePasteController.EXPIRE) @Nullable String expire,
            @Header(CHECKSUM_SHA256) @Nullable String checksumSha256,
            @Header(CreatePasteController.IDEMPOTENCY_KEY) @Nullable String idempotencyKey,
            HttpRequest<?> request,
            Caller caller) {
        if (idempotencyKey != null) {
            // as a JSON large create: a replay would have to sign a new upload for a file that may be on its way
            throw new InvalidIdempotencyKeyException("An upload (PUT) takes no Idempotency-Key");
        }
        long declaredLength = request.getContentLength();
        CreateLargePasteService.LargePasteRequest paste = reader.fromUpload(
                name,
                declaredLength < 0 ? null : declaredLength,
                // as sent: it is signed into the upload, and curl re-sends exactly these bytes to S3
                request.getHeaders().get(HttpHeaders.CONTENT_TYPE),
                checksumSha256,
                PasteOptions.fromClientConventions(expire, null, false));
        return CreationAnswers.uploadRedirect(
                service.create(paste, caller.userId(), caller.credential()), name, request);
    }
}
