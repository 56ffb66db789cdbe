package dev.pastebin.create;

import dev.pastebin.api.http.ApiDocs;
import dev.pastebin.api.http.RawBody;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * The API document's part for the haste protocol's create, {@code POST /documents} (docs/openapi.yaml):
 * micronaut-openapi reads these annotations through {@link HasteCreateController}, which implements this and
 * holds the route.
 */
interface HasteCreateApi {

    @Operation(
            operationId = "createHasteDocument",
            summary = "Create a paste as a haste client does",
            description = "The raw body is the paste, whatever the Content-Type (none, text/plain, curl's default "
                    + "application/x-www-form-urlencoded), except multipart/form-data, whose \"data\" field is the paste. "
                    + "Answered 200 {\"key\"}: read it at /{key}, /raw/{key} or /documents/{key}. No options; the same "
                    + "checks and limit as POST /pastes.",
            parameters =
                    @Parameter(
                            name = CreatePasteController.IDEMPOTENCY_KEY,
                            in = ParameterIn.HEADER,
                            description = "Makes a retried create safe, as for POST /pastes",
                            schema = @Schema(ref = ApiDocs.SCHEMAS + "IdempotencyKey")),
            requestBody =
                    @RequestBody(
                            required = true,
                            content = {
                                @Content(
                                        mediaType = MediaType.TEXT_PLAIN,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "PasteText")),
                                @Content(
                                        mediaType = MediaType.MULTIPART_FORM_DATA,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "HasteDataPart"))
                            }),
            responses = {
                @ApiResponse(responseCode = "200", ref = ApiDocs.HASTE_CREATED),
                @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "401", ref = ApiDocs.API_KEY_REFUSED),
                @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "409", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "413", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "415", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "422", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "429", ref = ApiDocs.API_KEY_QUOTA_EXCEEDED),
                @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
            })
    HttpResponse<?> create(
            @Parameter(hidden = true) RawBody body,
            @Parameter(hidden = true) @Nullable String idempotencyKey,
            HttpRequest<?> request,
            @Parameter(hidden = true) Caller caller);
}
