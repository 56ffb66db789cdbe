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
 * The API document's part for {@code POST /pastes} and {@code POST /} (docs/openapi.yaml): micronaut-openapi
 * reads these annotations through {@link CreatePasteController}, which implements this and holds the routes. The
 * two operations take the same request and give the same answers; only their names and descriptions differ. Their
 * parameters, body and responses are written out twice: micronaut-openapi reads no shared annotation (a
 * meta-annotation carrying them was ignored), and a reference to a shared component would change the document.
 */
interface CreatePasteApi {

    String IDEMPOTENCY_KEY_DOC = "Makes a retried create safe: the same key and request within 24 h "
            + "answer the same paste (at most 16 replays, then 409); the same key with another request answers 422";

    @Operation(
            operationId = "createPaste",
            summary = "Create a paste",
            description = "The paste as the raw text/plain body, options as query parameters, or as JSON "
                    + "{\"content\", \"expiresIn\", \"readOnce\", \"language\", \"fileName\"}; or as command-line clients post it (also to POST /, createPasteAtRoot): the "
                    + "multipart \"file\" part (curl -F file=@notes.txt, 0x0.st; its filename labels the paste), the \"oneshot\" part for a paste read once "
                    + "(rustypaste), the urlencoded \"content\" field (pastebinit, HTML forms), expiry from the \"expire\" "
                    + "header or the \"expires\" field. A form is answered 200 with the paste's URL as one text/plain line and the "
                    + "deletion token in X-Token (201 JSON with Accept: application/json). 404 only for an Idempotency-Key "
                    + "replay whose paste is gone.",
            parameters = {
                @Parameter(
                        name = "expiresIn",
                        in = ParameterIn.QUERY,
                        description = "Lifetime in whole seconds (text/plain bodies)",
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "ExpiresIn")),
                @Parameter(
                        name = "readOnce",
                        in = ParameterIn.QUERY,
                        description = "Burn after reading (text/plain bodies)",
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "ReadOnce")),
                @Parameter(
                        name = "language",
                        in = ParameterIn.QUERY,
                        description = "The language the web page " + "highlights it as (text/plain bodies)",
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "Language")),
                @Parameter(
                        name = "fileName",
                        in = ParameterIn.QUERY,
                        description = "The name a download gets " + "(text/plain bodies)",
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "FileName")),
                @Parameter(
                        name = CreatePasteController.EXPIRE,
                        in = ParameterIn.HEADER,
                        description = "Lifetime as a duration such as 10min, "
                                + "1h 30m or 7d (form bodies, as rustypaste's client sends it)",
                        schema = @Schema(implementation = String.class)),
                @Parameter(
                        name = CreatePasteController.IDEMPOTENCY_KEY,
                        in = ParameterIn.HEADER,
                        description = IDEMPOTENCY_KEY_DOC,
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "IdempotencyKey"))
            },
            requestBody =
                    @RequestBody(
                            required = true,
                            content = {
                                @Content(
                                        mediaType = MediaType.TEXT_PLAIN,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "PasteText")),
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "NewPaste")),
                                @Content(
                                        mediaType = MediaType.MULTIPART_FORM_DATA,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "PasteFilePart")),
                                @Content(
                                        mediaType = MediaType.APPLICATION_FORM_URLENCODED,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "PasteFormField"))
                            }),
            responses = {
                @ApiResponse(responseCode = "200", ref = ApiDocs.URL_LINE),
                @ApiResponse(responseCode = "201", ref = ApiDocs.CREATED),
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
            @Parameter(hidden = true) @Nullable String expire,
            HttpRequest<?> request,
            @Parameter(hidden = true) Caller caller);

    @Operation(
            operationId = "createPasteAtRoot",
            summary = "Create a paste, as POST /pastes",
            description = "The same request and answers as POST /pastes (createPaste), at the root where command-line "
                    + "clients post their forms.",
            parameters = {
                @Parameter(
                        name = "expiresIn",
                        in = ParameterIn.QUERY,
                        description = "Lifetime in whole seconds (text/plain bodies)",
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "ExpiresIn")),
                @Parameter(
                        name = "readOnce",
                        in = ParameterIn.QUERY,
                        description = "Burn after reading (text/plain bodies)",
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "ReadOnce")),
                @Parameter(
                        name = "language",
                        in = ParameterIn.QUERY,
                        description = "The language the web page " + "highlights it as (text/plain bodies)",
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "Language")),
                @Parameter(
                        name = "fileName",
                        in = ParameterIn.QUERY,
                        description = "The name a download gets " + "(text/plain bodies)",
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "FileName")),
                @Parameter(
                        name = CreatePasteController.EXPIRE,
                        in = ParameterIn.HEADER,
                        description = "Lifetime as a duration such as 10min, "
                                + "1h 30m or 7d (form bodies, as rustypaste's client sends it)",
                        schema = @Schema(implementation = String.class)),
                @Parameter(
                        name = CreatePasteController.IDEMPOTENCY_KEY,
                        in = ParameterIn.HEADER,
                        description = IDEMPOTENCY_KEY_DOC,
                        schema = @Schema(ref = ApiDocs.SCHEMAS + "IdempotencyKey"))
            },
            requestBody =
                    @RequestBody(
                            required = true,
                            content = {
                                @Content(
                                        mediaType = MediaType.TEXT_PLAIN,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "PasteText")),
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "NewPaste")),
                                @Content(
                                        mediaType = MediaType.MULTIPART_FORM_DATA,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "PasteFilePart")),
                                @Content(
                                        mediaType = MediaType.APPLICATION_FORM_URLENCODED,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "PasteFormField"))
                            }),
            responses = {
                @ApiResponse(responseCode = "200", ref = ApiDocs.URL_LINE),
                @ApiResponse(responseCode = "201", ref = ApiDocs.CREATED),
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
    HttpResponse<?> createAtRoot(
            @Parameter(hidden = true) RawBody body,
            @Parameter(hidden = true) @Nullable String idempotencyKey,
            @Parameter(hidden = true) @Nullable String expire,
            HttpRequest<?> request,
            @Parameter(hidden = true) Caller caller);
}
