package dev.pastebin.remove;

import dev.pastebin.api.http.ApiDocs;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * The API document's part for the routes that remove a paste (docs/openapi.yaml): micronaut-openapi reads these
 * annotations through {@link RemovePasteController}, which implements this and holds the routes.
 */
interface RemovePasteApi {

    @Operation(
            operationId = "deletePaste",
            summary = "Delete a paste with its deletion token",
            description = "Removes the row and the object, whatever the paste's state. An unknown code, an expired "
                    + "paste and a wrong token all answer the same 404.",
            responses = {
                @ApiResponse(responseCode = "204", ref = ApiDocs.DELETED),
                @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "401", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
            })
    HttpResponse<?> delete(
            @Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode"))
                    String shortCode,
            @Parameter(
                            description = "The deleteToken POST /pastes answered",
                            schema = @Schema(ref = ApiDocs.SCHEMAS + "DeleteToken"))
                    @Nullable
                    String deleteToken);

    @Operation(
            operationId = "revealPaste",
            summary = "Read a read-once paste, once",
            description = "The content to exactly one caller, even under concurrent reveals; the paste is then gone. "
                    + "The request body, if any, is ignored.",
            responses = {
                @ApiResponse(responseCode = "200", ref = ApiDocs.REVEALED),
                @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING),
                @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "409", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
            })
    HttpResponse<?> reveal(
            @Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode"))
                    String shortCode,
            HttpRequest<?> request);
}
