package dev.pastebin.read;

import dev.pastebin.core.http.ApiDocs;
import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import dev.pastebin.core.http.ContentNegotiation;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * The haste protocol's reads (hastebin's clients, unmodified; docs/design.md, "Haste protocol"), mapped onto the
 * same pastes as {@code /pastes/{shortCode}}: a haste key is a short code. {@code GET /documents/{key}} answers
 * {@code {"key", "data"}}, {@code GET /raw/{key}} the exact bytes, and {@code GET /{key}}, the URL haste clients
 * print, the web page to a browser and the bytes to everyone else. Haste clients append a file extension to a
 * key for highlighting ({@code aB3xYz9QkLm.py}); as haste-server does, everything from the first dot is ignored.
 */
@Controller
public class HasteReadController {

    private static final String KEY_DOC = "A short code, optionally followed by a file extension that is ignored "
            + "(aB3xYz9QkLm.py), as haste clients write it";

    private final PasteAnswers answers;
    private final ShortCodes shortCodes;

    public HasteReadController(PasteAnswers answers, ShortCodes shortCodes) {
        this.answers = answers;
        this.shortCodes = shortCodes;
    }

    @Operation(
            operationId = "readHasteDocument",
            summary = "Read a paste as a haste document",
            description = "The haste protocol's read: {\"key\", \"data\"} once stored. A read-once paste is not "
                    + "revealed here (409 READ_ONCE): POST /pastes/{shortCode}/reveal shows it, once.")
    @ApiResponse(responseCode = "200", ref = ApiDocs.HASTE_DOCUMENT)
    @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING)
    @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "409", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Get(uri = "/documents/{key}", produces = MediaType.APPLICATION_JSON, headRoute = false)
    public HttpResponse<?> document(
            @Parameter(description = KEY_DOC, schema = @Schema(ref = ApiDocs.SCHEMAS + "DocumentKey")) String key,
            HttpRequest<?> request) {
        return answers.answer(
                shortCodes.requireWellFormed(shortCodeOf(key)), PasteAnswers.View.HASTE_DOCUMENT, request, true);
    }

    @Operation(
            operationId = "readHasteRaw",
            summary = "Read a paste's exact bytes (haste's raw URL)",
            description = "The exact bytes as text/plain once stored, whatever Accept says. A read-once paste is not "
                    + "revealed here (409 READ_ONCE).")
    @ApiResponse(responseCode = "200", ref = ApiDocs.RAW_PASTE)
    @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING)
    @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "409", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Get(
            uri = "/raw/{key}",
            produces = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON},
            headRoute = false)
    public HttpResponse<?> raw(
            @Parameter(description = KEY_DOC, schema = @Schema(ref = ApiDocs.SCHEMAS + "DocumentKey")) String key,
            HttpRequest<?> request) {
        return answers.answer(shortCodes.requireWellFormed(shortCodeOf(key)), PasteAnswers.View.TEXT, request, true);
    }

    /**
     * The root holds other names than pastes ({@code /favicon.ico}, {@code /robots.txt}): a key that cannot be a
     * short code is no such resource (404), not a malformed request.
     */
    @Operation(
            operationId = "readPasteAtRoot",
            summary = "A paste at the URL haste clients print",
            description = "As GET /pastes/{shortCode} (readPaste): the exact bytes to curl (Accept */* or none), the "
                    + "JSON view with Accept: application/json, a read-once paste's metadata; a browser is sent to the "
                    + "paste's web page. A key that is no short code answers 404 NOT_FOUND.")
    @ApiResponse(responseCode = "200", ref = ApiDocs.PASTE_READ)
    @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING)
    @ApiResponse(responseCode = "303", ref = ApiDocs.SEE_PAGE)
    @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
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
    public HttpResponse<?> atRoot(
            @Parameter(
                            name = "shortCode",
                            description = KEY_DOC,
                            schema = @Schema(ref = ApiDocs.SCHEMAS + "DocumentKey"))
                    @PathVariable("shortCode")
                    String key,
            HttpRequest<?> request) {
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
