package dev.pastebin.create;

import dev.pastebin.api.create.CreateLargePasteService;
import dev.pastebin.api.create.CreatePasteService;
import dev.pastebin.api.http.ContentNegotiation;
import dev.pastebin.api.http.EdgeRequests;
import dev.pastebin.core.storage.LargeFileStore;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How a create is answered, whichever route took it: the 201 JSON body ({@link CreatedPaste}), the paste's URL as
 * one text/plain line for command-line clients' forms, the haste key ({@link HasteKey}). Every answer is
 * {@code no-store} (the deletion token is a secret for this client only) and says when it was a replay.
 */
final class CreationAnswers {

    static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";
    /** 0x0.st's header for the deletion token, for the clients whose body has no place for it. */
    static final String X_TOKEN = "X-Token";

    /** A {@code PUT /{name}}'s paste, where curl shows it beside the redirect ({@code curl -i}, {@code -D -}). */
    static final String PASTE_URL = "Paste-Url";

    static final String PASTE_SHORT_CODE = "Paste-Short-Code";
    /** The header a delete sends the token back in, so the answer names it as the request will. */
    static final String PASTE_DELETE_TOKEN = "Paste-Delete-Token";

    private static final String X_FORWARDED_PROTO = "X-Forwarded-Proto";

    private CreationAnswers() {}

    /** 201 with the paste's JSON view and its path in {@code Location}. */
    static MutableHttpResponse<CreatedPaste> created(CreatePasteService.Creation creation, HttpRequest<?> request) {
        return withCreationHeaders(
                HttpResponse.created(
                        new CreatedPaste(
                                creation.shortCode(),
                                creation.status().name(),
                                absolute(pathOf(creation), request),
                                creation.deleteToken(),
                                creation.expiresAt() == null
                                        ? null
                                        : creation.expiresAt().toString(),
                                creation.readOnce()),
                        URI.create(pathOf(creation))),
                creation);
    }

    /** 201 with the large paste's JSON view, its uploads, and its path in {@code Location}. */
    static MutableHttpResponse<LargeCreatedPaste> createdLarge(
            CreateLargePasteService.LargeCreation large, List<String> names, HttpRequest<?> request) {
        CreatePasteService.Creation creation = large.paste();
        List<LargeCreatedPaste.Upload> uploads = new ArrayList<>();
        for (int i = 0; i < large.uploads().size(); i++) {
            LargeFileStore.PresignedRequest upload = large.uploads().get(i);
            Map<String, String> headers = new TreeMap<>();
            upload.headers().forEach((name, values) -> headers.put(name, String.join(",", values)));
            uploads.add(new LargeCreatedPaste.Upload(
                    names.get(i),
                    upload.method(),
                    upload.url().toString(),
                    headers,
                    upload.expiresAt().toString()));
        }
        return withCreationHeaders(
                HttpResponse.created(
                        new LargeCreatedPaste(
                                creation.shortCode(),
                                creation.status().name(),
                                absolute(pathOf(creation), request),
                                creation.deleteToken(),
                                creation.expiresAt() == null
                                        ? null
                                        : creation.expiresAt().toString(),
                                creation.readOnce(),
                                uploads),
                        URI.create(pathOf(creation))),
                creation);
    }

    /**
     * 307 to the one file's pre-signed PUT, which {@code curl -L} follows with the same method, body and headers; the
     * paste in headers and a short text/plain body (which curl shows only when it does not follow the redirect).
     */
    static MutableHttpResponse<String> uploadRedirect(
            CreateLargePasteService.LargeCreation large, String name, HttpRequest<?> request) {
        CreatePasteService.Creation creation = large.paste();
        LargeFileStore.PresignedRequest upload = large.uploads().getFirst();
        String url = absolute(pathOf(creation), request);
        String body = url + "\n"
                + PASTE_DELETE_TOKEN + ": " + creation.deleteToken() + "\n"
                + "Send " + name + " to this answer's Location with the same headers before " + upload.expiresAt()
                + " (curl -L follows it).\n";
        return withCreationHeaders(
                HttpResponse.<String>status(HttpStatus.TEMPORARY_REDIRECT)
                        .header(HttpHeaders.LOCATION, upload.url().toString())
                        .header(PASTE_URL, url)
                        .header(PASTE_SHORT_CODE, creation.shortCode())
                        .header(PASTE_DELETE_TOKEN, creation.deleteToken())
                        .contentType(ContentNegotiation.TEXT_UTF8)
                        .body(body),
                creation);
    }

    /**
     * The paste's URL as one text/plain line, which the clients that post forms print. 200, not 201: 0x0.st and
     * rustypaste answer 200, and rustypaste's client calls any other status an error.
     */
    static MutableHttpResponse<String> urlLine(CreatePasteService.Creation creation, HttpRequest<?> request) {
        return withCreationHeaders(
                HttpResponse.ok(absolute(pathOf(creation), request) + "\n")
                        .header(HttpHeaders.LOCATION, pathOf(creation))
                        .contentType(ContentNegotiation.TEXT_UTF8),
                creation);
    }

    /** 200 {@code {"key"}}, as haste-server answers; the deletion token, which haste has no place for, in X-Token. */
    static MutableHttpResponse<HasteKey> hasteKey(CreatePasteService.Creation creation) {
        return withCreationHeaders(
                HttpResponse.ok(new HasteKey(creation.shortCode())).header(X_TOKEN, creation.deleteToken()), creation);
    }

    private static String pathOf(CreatePasteService.Creation creation) {
        return "/pastes/" + creation.shortCode();
    }

    private static <T> MutableHttpResponse<T> withCreationHeaders(
            MutableHttpResponse<T> response, CreatePasteService.Creation creation) {
        // the deletion token is a secret for this client only
        response.header(HttpHeaders.CACHE_CONTROL, "no-store");
        return creation.replayed() ? response.header(IDEMPOTENT_REPLAYED, "true") : response;
    }

    /**
     * Absolute when the request names its host (API Gateway always does; behind the edge, the viewer's host the
     * edge forwarded); the scheme API Gateway forwarded.
     */
    private static String absolute(String path, HttpRequest<?> request) {
        String host = EdgeRequests.publicHost(request).orElse(null);
        if (host == null) {
            return path;
        }
        String scheme = Optional.ofNullable(request.getHeaders().get(X_FORWARDED_PROTO))
                .filter(s -> s.equals("http") || s.equals("https"))
                .orElse("https");
        return scheme + "://" + host + path;
    }
}
