package dev.pastebin.create;

import dev.pastebin.core.http.ApiDocs;
import dev.pastebin.core.paste.IdempotencyKey;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * The haste protocol's create ({@code POST /documents}, as hastebin's clients send it, unmodified; docs/design.md,
 * "Haste protocol"): the raw body is the paste, answered {@code 200 {"key": "<shortCode>"}} as haste-server
 * answers (clients check for 200 and read {@code key}). The same create as {@code POST /pastes}: row, then job,
 * so the answer means the upload is queued. Errors are the API's JSON body, whose {@code message} haste clients
 * show. The deletion token, which haste has no place for, is in {@code X-Token}.
 */
@Controller
public class HasteCreateController {

    private final CreatePasteService service;
    private final PasteContentReader reader;

    public HasteCreateController(CreatePasteService service, PasteContentReader reader) {
        this.service = service;
        this.reader = reader;
    }

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
                            }))
    @ApiResponse(responseCode = "200", ref = ApiDocs.HASTE_CREATED)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "409", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "413", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "415", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "422", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post(uri = "/documents", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<?> create(
            @Parameter(hidden = true) RawBody body,
            @Parameter(hidden = true) @Header(CreatePasteController.IDEMPOTENCY_KEY) @Nullable String idempotencyKey,
            HttpRequest<?> request,
            @Parameter(hidden = true) Caller caller) {
        MediaType type = request.getContentType().orElse(null);
        PasteContentReader.requireUtf8Charset(type);
        PasteRequest paste = reader.fromHaste(body.bytes(), type);
        CreatePasteService.Creation creation =
                service.create(paste, caller.userId(), IdempotencyKey.of(idempotencyKey, caller.userId()));
        MutableHttpResponse<HasteKey> response = HttpResponse.ok(new HasteKey(creation.shortCode()))
                .header(CreatePasteController.X_TOKEN, creation.deleteToken())
                // the deletion token is a secret for this client only
                .header(HttpHeaders.CACHE_CONTROL, "no-store");
        return creation.replayed() ? response.header(CreatePasteController.IDEMPOTENT_REPLAYED, "true") : response;
    }
}
