package dev.pastebin.read;

import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.api.http.ContentNegotiation;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;

/**
 * The haste protocol's reads (hastebin's clients, unmodified; docs/design.md, "Haste protocol"), mapped onto the
 * same pastes as {@code /pastes/{shortCode}}: a haste key is a short code. {@code GET /documents/{key}} answers
 * {@code {"key", "data"}}, {@code GET /raw/{key}} the exact bytes, and {@code GET /{key}}, the URL haste clients
 * print, the web page to a browser and the bytes to everyone else. Haste clients append a file extension to a
 * key for highlighting ({@code aB3xYz9QkLm.py}); as haste-server does, everything from the first dot is ignored.
 * Documented in docs/openapi.yaml, which OpenApiDocumentTest holds to this controller.
 */
@Controller
public class HasteReadController {

    private final PasteAnswers answers;
    private final ShortCodes shortCodes;

    public HasteReadController(PasteAnswers answers, ShortCodes shortCodes) {
        this.answers = answers;
        this.shortCodes = shortCodes;
    }

    @Get(uri = "/documents/{key}", produces = MediaType.APPLICATION_JSON, headRoute = false)
    public HttpResponse<?> document(String key, HttpRequest<?> request) {
        return answers.answer(
                shortCodes.requireWellFormed(shortCodeOf(key)), PasteAnswers.View.HASTE_DOCUMENT, request, true);
    }

    @Get(
            uri = "/raw/{key}",
            produces = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON},
            headRoute = false)
    public HttpResponse<?> raw(String key, HttpRequest<?> request) {
        return answers.answer(shortCodes.requireWellFormed(shortCodeOf(key)), PasteAnswers.View.TEXT, request, true);
    }

    /**
     * The root holds other names than pastes ({@code /favicon.ico}, {@code /robots.txt}): a key that cannot be a
     * short code is no such resource (404), not a malformed request.
     */
    // named shortCode, as on /pastes/{shortCode}, so that a read's links (its revalidation) hold for both routes
    @Get(
            uri = "/{shortCode}",
            produces = {
                MediaType.TEXT_PLAIN,
                MediaType.APPLICATION_JSON,
                MediaType.TEXT_HTML,
                WebPagesController.ANY_TEXT
            },
            headRoute = false)
    public HttpResponse<?> atRoot(@PathVariable("shortCode") String key, HttpRequest<?> request) {
        String shortCode = shortCodeOf(key);
        if (!shortCodes.isWellFormed(shortCode)) {
            throw new ApiException(ApiErrorCode.NOT_FOUND, "No such resource");
        }
        if (ContentNegotiation.wantsPage(request)) {
            return PasteAnswers.seePage(shortCode);
        }
        return answers.answer(shortCode, PasteAnswers.View.NEGOTIATED, request, true);
    }

    /** haste-server's rule: the key is what precedes the first dot. */
    static String shortCodeOf(String key) {
        int dot = key.indexOf('.');
        return dot < 0 ? key : key.substring(0, dot);
    }
}
