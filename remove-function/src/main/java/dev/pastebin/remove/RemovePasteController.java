package dev.pastebin.remove;

import static dev.pastebin.core.http.ContentNegotiation.TEXT_UTF8;

import dev.pastebin.core.http.ApiDocs;
import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import dev.pastebin.core.http.ContentNegotiation;
import dev.pastebin.core.http.InProgressAnswer;
import dev.pastebin.core.http.PasteDocument;
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
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * The routes that remove a paste, apart from the read function so that it keeps read-only rights:
 * {@code DELETE /pastes/{shortCode}} with the paste's deletion token, and {@code POST /pastes/{shortCode}/reveal},
 * which hands a read-once paste's content to one caller and removes it.
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

    @Operation(
            operationId = "deletePaste",
            summary = "Delete a paste with its deletion token",
            description = "Removes the row and the object, whatever the paste's state. An unknown code, an expired "
                    + "paste and a wrong token all answer the same 404.")
    @ApiResponse(responseCode = "204", ref = ApiDocs.DELETED)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "401", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Delete("/{shortCode}")
    public HttpResponse<?> delete(
            @Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode"))
                    String shortCode,
            @Parameter(
                            description = "The deleteToken POST /pastes answered",
                            schema = @Schema(ref = ApiDocs.SCHEMAS + "DeleteToken"))
                    @Header(DELETE_TOKEN_HEADER)
                    @Nullable
                    String deleteToken) {
        shortCodes.requireWellFormed(shortCode);
        if (deleteToken == null || deleteToken.isEmpty()) {
            throw new ApiException(
                    ApiErrorCode.DELETE_TOKEN_REQUIRED,
                    "Send the deletion token of the paste in the " + DELETE_TOKEN_HEADER + " header");
        }
        deletions.delete(shortCode, deleteToken);
        return HttpResponse.noContent();
    }

    @Operation(
            operationId = "revealPaste",
            summary = "Read a read-once paste, once",
            description = "The content to exactly one caller, even under concurrent reveals; the paste is then gone. "
                    + "The request body, if any, is ignored.")
    @ApiResponse(responseCode = "200", ref = ApiDocs.REVEALED)
    @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "409", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post(
            uri = "/{shortCode}/reveal",
            consumes = MediaType.ALL,
            produces = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON})
    public HttpResponse<?> reveal(
            @Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode"))
                    String shortCode,
            HttpRequest<?> request) {
        return switch (reveals.reveal(shortCodes.requireWellFormed(shortCode))) {
            case Reveal.Pending pending -> inProgress.response(pending.paste(), true);
            case Reveal.Revealed revealed -> revealed(revealed, ContentNegotiation.wantsJson(request));
        };
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
