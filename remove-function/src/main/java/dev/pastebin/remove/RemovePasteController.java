package dev.pastebin.remove;

import static dev.pastebin.api.http.ContentNegotiation.TEXT_UTF8;

import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.api.http.ContentNegotiation;
import dev.pastebin.api.http.InProgressAnswer;
import dev.pastebin.api.http.PasteDocument;
import dev.pastebin.api.remove.DeletePasteService;
import dev.pastebin.api.remove.Reveal;
import dev.pastebin.api.remove.RevealPasteService;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;

/**
 * The routes that remove a paste, apart from the read function so that it keeps read-only rights:
 * {@code DELETE /pastes/{shortCode}} with the paste's deletion token, and {@code POST /pastes/{shortCode}/reveal},
 * which hands a read-once paste's content to one caller and removes it. Documented in docs/openapi.yaml, which
 * OpenApiDocumentTest holds to this controller.
 */
@Controller("/pastes")
public class RemovePasteController {

    static final String DELETE_TOKEN_HEADER = "Paste-Delete-Token";

    private final DeletePasteService deletions;
    private final RevealPasteService reveals;
    private final ShortCodes shortCodes;
    private final InProgressAnswer inProgress;

    public RemovePasteController(
            DeletePasteService deletions,
            RevealPasteService reveals,
            ShortCodes shortCodes,
            InProgressAnswer inProgress) {
        this.deletions = deletions;
        this.reveals = reveals;
        this.shortCodes = shortCodes;
        this.inProgress = inProgress;
    }

    @Delete("/{shortCode}")
    public HttpResponse<?> delete(String shortCode, @Header(DELETE_TOKEN_HEADER) @Nullable String deleteToken) {
        shortCodes.requireWellFormed(shortCode);
        if (deleteToken == null || deleteToken.isEmpty()) {
            throw new ApiException(
                    ApiErrorCode.DELETE_TOKEN_REQUIRED,
                    "Send the deletion token of the paste in the " + DELETE_TOKEN_HEADER + " header");
        }
        deletions.delete(shortCode, deleteToken);
        return HttpResponse.noContent();
    }

    @Post(
            uri = "/{shortCode}/reveal",
            consumes = MediaType.ALL,
            produces = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON})
    public HttpResponse<?> reveal(String shortCode, HttpRequest<?> request) {
        return switch (reveals.reveal(shortCodes.requireWellFormed(shortCode))) {
            case Reveal.Pending pending -> inProgress.response(pending.paste(), true);
            case Reveal.Revealed revealed -> revealed(revealed, ContentNegotiation.wantsJson(request));
            case Reveal.RevealedFiles files -> revealedFiles(files, ContentNegotiation.wantsJson(request));
        };
    }

    /**
     * A read-once large paste, burnt (docs/design.md, "Reading once"): its files' links in JSON, or, for one file and a
     * client that does not ask for JSON ({@code curl -L}), 303 to its link, which the client follows with a GET.
     * Never cached: the links are this caller's only.
     */
    private static HttpResponse<?> revealedFiles(Reveal.RevealedFiles revealed, boolean json) {
        if (!json && revealed.files().size() == 1) {
            return HttpResponse.seeOther(java.net.URI.create(
                            revealed.files().getFirst().link().toString()))
                    .header(HttpHeaders.CACHE_CONTROL, "no-store");
        }
        return HttpResponse.ok()
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .contentType(MediaType.APPLICATION_JSON_TYPE)
                .body(RevealedFilesDocument.of(revealed));
    }

    /** Never cached anywhere: nobody may see this content a second time. */
    private static HttpResponse<?> revealed(Reveal.Revealed revealed, boolean json) {
        MutableHttpResponse<Object> response = HttpResponse.ok()
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("X-Content-Type-Options", "nosniff");
        if (json) {
            return response.contentType(MediaType.APPLICATION_JSON_TYPE)
                    .body(PasteDocument.of(revealed.paste(), revealed.content()));
        }
        return response.contentType(TEXT_UTF8).body(revealed.content());
    }
}
