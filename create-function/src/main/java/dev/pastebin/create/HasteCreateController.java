package dev.pastebin.create;

import dev.pastebin.api.create.CreatePasteService;
import dev.pastebin.api.create.PasteRequest;
import dev.pastebin.api.http.RawBody;
import dev.pastebin.core.paste.IdempotencyKey;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;

/**
 * The haste protocol's create ({@code POST /documents}, as hastebin's clients send it, unmodified; docs/design.md,
 * "Haste protocol"): the raw body is the paste, answered {@code 200 {"key": "<shortCode>"}} as haste-server
 * answers (clients check for 200 and read {@code key}). The same create as {@code POST /pastes}: row, then job,
 * so the answer means the upload is queued. Errors are the API's JSON body, whose {@code message} haste clients
 * show. The deletion token, which haste has no place for, is in {@code X-Token}. Documented in
 * docs/openapi.yaml, which OpenApiDocumentTest holds to this controller.
 */
@Controller
public class HasteCreateController {

    private final CreatePasteService service;
    private final PasteContentReader reader;

    public HasteCreateController(CreatePasteService service, PasteContentReader reader) {
        this.service = service;
        this.reader = reader;
    }

    @Post(uri = "/documents", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<?> create(
            RawBody body,
            @Header(CreatePasteController.IDEMPOTENCY_KEY) @Nullable String idempotencyKey,
            HttpRequest<?> request,
            Caller caller) {
        MediaType type = request.getContentType().orElse(null);
        PasteContentReader.requireUtf8Charset(type);
        PasteRequest paste = reader.fromHaste(body.bytes(), type);
        IdempotencyKey key = IdempotencyKey.of(idempotencyKey, caller.userId());
        return CreationAnswers.hasteKey(
                service.create(paste, caller.userId(), key, caller.credential(), caller.client()));
    }
}
