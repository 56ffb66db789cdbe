package dev.pastebin.create;

import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import dev.pastebin.core.paste.PasteStatus;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;

import java.net.URI;
import java.util.Optional;

/**
 * {@code POST /pastes}: the paste as a raw {@code text/plain} body ({@code curl --data-binary @file}) or as
 * JSON {@code {"content": "…"}}. Maps HTTP to {@link CreatePasteService} and back, nothing more.
 */
@Controller("/pastes")
public class CreatePasteController {

    private static final String X_FORWARDED_PROTO = "X-Forwarded-Proto";

    private final CreatePasteService service;
    private final PasteContentReader reader;

    public CreatePasteController(CreatePasteService service, PasteContentReader reader) {
        this.service = service;
        this.reader = reader;
    }

    @Post(consumes = MediaType.TEXT_PLAIN, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<CreatedPaste> createFromText(@Body @Nullable byte[] body, HttpRequest<?> request, Caller caller) {
        requireUtf8Charset(request);
        return created(service.create(reader.fromText(body), caller.userId()), request);
    }

    @Post(consumes = MediaType.APPLICATION_JSON, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<CreatedPaste> createFromJson(@Body @Nullable byte[] body, HttpRequest<?> request, Caller caller) {
        requireUtf8Charset(request);
        return created(service.create(reader.fromJson(body), caller.userId()), request);
    }

    private static HttpResponse<CreatedPaste> created(String shortCode, HttpRequest<?> request) {
        String path = "/pastes/" + shortCode;
        return HttpResponse.created(new CreatedPaste(shortCode, PasteStatus.IN_PROGRESS.name(), absolute(path, request)),
                URI.create(path));
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
