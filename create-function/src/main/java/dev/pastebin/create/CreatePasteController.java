package dev.pastebin.create;

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
    private static final String X_FORWARDED_PROTO = "X-Forwarded-Proto";

    private final CreatePasteService service;
    private final PasteContentReader reader;

    public CreatePasteController(CreatePasteService service, PasteContentReader reader) {
        this.service = service;
        this.reader = reader;
    }

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

    @Post(consumes = MediaType.APPLICATION_JSON, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<CreatedPaste> createFromJson(@Body @Nullable byte[] body,
                                                     @Header(IDEMPOTENCY_KEY) @Nullable String idempotencyKey,
                                                     HttpRequest<?> request, Caller caller) {
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
