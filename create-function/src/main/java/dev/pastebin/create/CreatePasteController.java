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
import java.util.Locale;
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

    /**
     * One route for both forms, told apart here by Content-Type. With a route per form Micronaut narrowed the
     * routes by Accept first and answered an unacceptable Accept with 415 instead of 406, and a body without a
     * Content-Type matched both routes.
     */
    @Post(consumes = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON}, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<CreatedPaste> create(@Body @Nullable byte[] body, HttpRequest<?> request, Caller caller) {
        MediaType type = request.getContentType().orElseThrow(CreatePasteController::unsupportedMediaType);
        requireUtf8Charset(type);
        byte[] content = switch (type.getName().toLowerCase(Locale.ROOT)) {
            case MediaType.TEXT_PLAIN -> reader.fromText(body);
            case MediaType.APPLICATION_JSON -> reader.fromJson(body);
            default -> throw unsupportedMediaType();
        };
        return created(service.create(content, caller.userId()), request);
    }

    private static ApiException unsupportedMediaType() {
        return new ApiException(ApiErrorCode.UNSUPPORTED_MEDIA_TYPE,
                "Send the paste with Content-Type: text/plain; charset=utf-8 or application/json");
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
    private static void requireUtf8Charset(MediaType type) {
        String charset = type.getParameters().get("charset").orElse(null);
        if (charset != null && !charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
            throw new ApiException(ApiErrorCode.UNSUPPORTED_MEDIA_TYPE, "Only charset=utf-8 is accepted");
        }
    }
}
