package dev.pastebin.read;

import dev.pastebin.api.http.ContentNegotiation;
import dev.pastebin.api.read.ReadPasteService;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Head;

/**
 * {@code GET} and {@code HEAD /pastes/{shortCode}}: maps {@link ReadPasteService}'s answer to HTTP ({@link PasteAnswers}). The plain
 * view is the exact bytes as {@code text/plain; charset=utf-8}; {@code Accept: application/json} gets the JSON
 * view. A read-once paste shows only its metadata (the content comes from {@code POST …/reveal}). HEAD answers
 * from the row alone (no S3 call). Documented in docs/openapi.yaml, which OpenApiDocumentTest holds to this
 * controller.
 */
@Controller("/pastes")
public class ReadPasteController {

    private final PasteAnswers answers;
    private final ShortCodes shortCodes;

    public ReadPasteController(PasteAnswers answers, ShortCodes shortCodes) {
        this.answers = answers;
        this.shortCodes = shortCodes;
    }

    @Get(
            uri = "/{shortCode}",
            produces = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON, MediaType.TEXT_HTML},
            headRoute = false)
    public HttpResponse<?> read(String shortCode, HttpRequest<?> request) {
        // ?file= asks for one file's bytes, which the page links to (its download): a browser gets them, not the page
        if (ContentNegotiation.wantsPage(request) && request.getParameters().get(PasteAnswers.FILE_PARAMETER) == null) {
            return PasteAnswers.seePage(shortCodes.requireWellFormed(shortCode));
        }
        return answers.answer(shortCodes.requireWellFormed(shortCode), PasteAnswers.View.NEGOTIATED, request, true);
    }

    @Head("/{shortCode}")
    public HttpResponse<?> head(String shortCode, HttpRequest<?> request) {
        return answers.answer(shortCodes.requireWellFormed(shortCode), PasteAnswers.View.NEGOTIATED, request, false);
    }
}
