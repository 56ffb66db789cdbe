package dev.pastebin.read;

import dev.pastebin.api.http.ApiDocs;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * The API document's part for {@code GET} and {@code HEAD /pastes/{shortCode}} (docs/openapi.yaml):
 * micronaut-openapi reads these annotations through {@link ReadPasteController}, which implements this and holds
 * the routes.
 */
interface ReadPasteApi {

    String IF_NONE_MATCH_DOC =
            "The ETag of a copy the client holds (a list, * and weak tags too): 304 while it is current";

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
                            schema = @Schema(implementation = String.class)),
            responses = {
                @ApiResponse(responseCode = "200", ref = ApiDocs.PASTE_READ),
                @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING),
                @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED),
                @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE),
                @ApiResponse(responseCode = "303", ref = ApiDocs.SEE_PAGE)
            })
    HttpResponse<?> read(
            @Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode"))
                    String shortCode,
            HttpRequest<?> request);

    @Operation(
            operationId = "headPaste",
            summary = "The headers of a read, answered from the row alone",
            parameters =
                    @Parameter(
                            name = HttpHeaders.IF_NONE_MATCH,
                            in = ParameterIn.HEADER,
                            description = IF_NONE_MATCH_DOC,
                            schema = @Schema(implementation = String.class)),
            responses = {
                @ApiResponse(responseCode = "200", ref = ApiDocs.PASTE_READ),
                @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING),
                @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED),
                @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
            })
    HttpResponse<?> head(
            @Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode"))
                    String shortCode,
            HttpRequest<?> request);
}
