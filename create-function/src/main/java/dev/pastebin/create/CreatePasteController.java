package dev.pastebin.create;

import dev.pastebin.core.http.ApiDocs;
import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import dev.pastebin.core.paste.IdempotencyKey;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import java.net.URI;
import java.util.Optional;

/**
 * {@code POST /pastes}: the paste as a raw {@code text/plain} body ({@code curl --data-binary @file}) or as
 * JSON {@code {"content": "…"}}, with options (expiry, read-once) and an optional {@code Idempotency-Key}.
 * Maps HTTP to {@link CreatePasteService} and back, nothing more.
 */
@Controller("/pastes")
public class CreatePasteController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";
    private static final String IDEMPOTENCY_KEY_DOC = "Makes a retried create safe: the same key and request within 24 h "
            + "answer the same paste; the same key with another request answers 422";
    private static final String X_FORWARDED_PROTO = "X-Forwarded-Proto";

    private final CreatePasteService service;
    private final PasteContentReader reader;

    public CreatePasteController(CreatePasteService service, PasteContentReader reader) {
        this.service = service;
        this.reader = reader;
    }

    // Documented once, as the JSON route's operation below: both routes are the one operation POST /pastes.
    @Operation(hidden = true)
    @Post(consumes = MediaType.TEXT_PLAIN, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<CreatedPaste> createFromText(@Body @Nullable byte[] body,
                                                     @QueryValue @Nullable String expiresIn,
                                                     @QueryValue @Nullable String readOnce,
                                                     @Header(IDEMPOTENCY_KEY) @Nullable String idempotencyKey,
                                                     HttpRequest<?> request, Caller caller) {
        requireUtf8Charset(request);
        IdempotencyKey key = IdempotencyKey.of(idempotencyKey, caller.userId());
        return created(service.create(reader.fromText(body, expiresIn, readOnce), caller.userId(), key), request);
    }

    @Operation(operationId = "createPaste", summary = "Create a paste",
            description = "The paste as the raw text/plain body, options as query parameters, or as JSON "
                    + "{\"content\", \"expiresIn\", \"readOnce\"}. 404 only for an Idempotency-Key replay whose paste is gone.",
            parameters = {
                    @Parameter(name = "expiresIn", in = ParameterIn.QUERY, description = "Lifetime in whole seconds (text/plain bodies)",
                            schema = @Schema(ref = ApiDocs.SCHEMAS + "ExpiresIn")),
                    @Parameter(name = "readOnce", in = ParameterIn.QUERY, description = "Burn after reading (text/plain bodies)",
                            schema = @Schema(ref = ApiDocs.SCHEMAS + "ReadOnce")),
                    @Parameter(name = IDEMPOTENCY_KEY, in = ParameterIn.HEADER, description = IDEMPOTENCY_KEY_DOC,
                            schema = @Schema(ref = ApiDocs.SCHEMAS + "IdempotencyKey"))},
            requestBody = @RequestBody(required = true, content = {
                    @Content(mediaType = MediaType.TEXT_PLAIN, schema = @Schema(ref = ApiDocs.SCHEMAS + "PasteText")),
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(ref = ApiDocs.SCHEMAS + "NewPaste"))}))
    @ApiResponse(responseCode = "201", ref = ApiDocs.CREATED)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "413", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "415", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "422", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post(consumes = MediaType.APPLICATION_JSON, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<CreatedPaste> createFromJson(@Parameter(hidden = true) @Body @Nullable byte[] body,
                                                     @Parameter(hidden = true) @Header(IDEMPOTENCY_KEY) @Nullable String idempotencyKey,
                                                     HttpRequest<?> request, @Parameter(hidden = true) Caller caller) {
        requireUtf8Charset(request);
        IdempotencyKey key = IdempotencyKey.of(idempotencyKey, caller.userId());
        return created(service.create(reader.fromJson(body), caller.userId(), key), request);
    }

    private static HttpResponse<CreatedPaste> created(CreatePasteService.Creation creation, HttpRequest<?> request) {
        String path = "/pastes/" + creation.shortCode();
        MutableHttpResponse<CreatedPaste> response = HttpResponse.created(new CreatedPaste(creation.shortCode(),
                creation.status().name(), absolute(path, request), creation.deleteToken(),
                creation.expiresAt() == null ? null : creation.expiresAt().toString(), creation.readOnce()),
                URI.create(path));
        // the deletion token is a secret for this client only
        response.header(HttpHeaders.CACHE_CONTROL, "no-store");
        return creation.replayed() ? response.header(IDEMPOTENT_REPLAYED, "true") : response;
    }

    /** Absolute when the request names its host (API Gateway always does); the scheme API Gateway forwarded. */
    private static String absolute(String path, HttpRequest<?> request) {
        String host = request.getHeaders().get(HttpHeaders.HOST);
        if (host == null || host.isBlank()) {
            return path;
        }
        String scheme = Optional.ofNullable(request.getHeaders().get(X_FORWARDED_PROTO))
                .filter(s -> s.equals("http") || s.equals("https"))
                .orElse("https");
        return scheme + "://" + host + path;
    }

    /** Pastes are UTF-8; a body declared in another charset would be re-encoded on the way in. */
    private static void requireUtf8Charset(HttpRequest<?> request) {
        String charset = request.getContentType().flatMap(type -> type.getParameters().get("charset")).orElse(null);
        if (charset != null && !charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
            throw new ApiException(ApiErrorCode.UNSUPPORTED_MEDIA_TYPE, "Only charset=utf-8 is accepted");
        }
    }
}
