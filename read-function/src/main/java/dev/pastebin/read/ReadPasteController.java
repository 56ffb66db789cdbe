package dev.pastebin.read;

import dev.pastebin.core.http.ApiDocs;
import dev.pastebin.core.http.ContentNegotiation;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Head;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * {@code GET} and {@code HEAD /pastes/{shortCode}}: maps {@link ReadPasteService}'s answer to HTTP ({@link PasteAnswers}). The plain
 * view is the exact bytes as {@code text/plain; charset=utf-8}; {@code Accept: application/json} gets the JSON
 * view. A read-once paste shows only its metadata (the content comes from {@code POST …/reveal}). HEAD answers
 * from the row alone (no S3 call).
 */
@Controller("/pastes")
public class ReadPasteController {

    private static final String IF_NONE_MATCH_DOC =
            "The ETag of a copy the client holds (a list, * and weak tags too): 304 while it is current";

    private final PasteAnswers answers;
    private final ShortCodes shortCodes;

    public ReadPasteController(PasteAnswers answers, ShortCodes shortCodes) {
        this.answers = answers;
        this.shortCodes = shortCodes;
    }

    @Operation(
            operationId = "readPaste",
            summary = "Read a paste",
            description = "The exact bytes, or the JSON view with Accept: application/json. A read-once paste shows "
                    + "only its metadata; its content comes from POST /pastes/{shortCode}/reveal. A browser (an Accept "
                    + "that prefers text/html) is sent to the paste's web page, /p/{shortCode}.",
            parameters =
                    @Parameter(
                            name = HttpHeaders.IF_NONE_MATCH,
                            in = ParameterIn.HEADER,
                            description = IF_NONE_MATCH_DOC,
                            schema = @Schema(implementation = String.class)))
    @ApiResponse(responseCode = "200", ref = ApiDocs.PASTE_READ)
    @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING)
    @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @ApiResponse(responseCode = "303", ref = ApiDocs.SEE_PAGE)
    @Get(
            uri = "/{shortCode}",
            produces = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON, MediaType.TEXT_HTML},
            headRoute = false)
    public HttpResponse<?> read(
            @Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode"))
                    String shortCode,
            HttpRequest<?> request) {
        if (ContentNegotiation.wantsPage(request)) {
            return PasteAnswers.seePage(shortCodes.requireWellFormed(shortCode));
        }
        return answers.answer(shortCodes.requireWellFormed(shortCode), PasteAnswers.View.NEGOTIATED, request, true);
    }

    @Operation(
            operationId = "headPaste",
            summary = "The headers of a read, answered from the row alone",
            parameters =
                    @Parameter(
                            name = HttpHeaders.IF_NONE_MATCH,
                            in = ParameterIn.HEADER,
                            description = IF_NONE_MATCH_DOC,
                            schema = @Schema(implementation = String.class)))
    @ApiResponse(responseCode = "200", ref = ApiDocs.PASTE_READ)
    @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING)
    @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Head("/{shortCode}")
    public HttpResponse<?> head(
            @Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode"))
                    String shortCode,
            HttpRequest<?> request) {
        return answers.answer(shortCodes.requireWellFormed(shortCode), PasteAnswers.View.NEGOTIATED, request, false);
    }
}
