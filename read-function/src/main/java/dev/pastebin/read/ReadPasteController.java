package dev.pastebin.read;

import dev.pastebin.core.config.PasteProperties;
import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import dev.pastebin.core.http.ApiProperties;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Head;

import java.nio.charset.StandardCharsets;

/**
 * {@code GET} and {@code HEAD /pastes/{shortCode}}: maps {@link ReadPasteService}'s answer to HTTP. The plain
 * view is the exact bytes as {@code text/plain; charset=utf-8}; {@code Accept: application/json} gets the JSON
 * view. HEAD answers from the row alone (no S3 call).
 */
@Controller("/pastes")
public class ReadPasteController {

    static final String TEXT_UTF8 = "text/plain; charset=utf-8";
    /** Pastes never change: cache for a year and never revalidate. */
    static final String IMMUTABLE = "public, max-age=31536000, immutable";

    private final ReadPasteService service;
    private final ShortCodes shortCodes;
    private final ApiProperties apiProperties;
    private final PasteProperties pasteProperties;

    public ReadPasteController(ReadPasteService service, ShortCodes shortCodes, ApiProperties apiProperties,
                               PasteProperties pasteProperties) {
        this.service = service;
        this.shortCodes = shortCodes;
        this.apiProperties = apiProperties;
        this.pasteProperties = pasteProperties;
    }

    @Get(uri = "/{shortCode}", produces = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON}, headRoute = false)
    public HttpResponse<?> read(String shortCode, HttpRequest<?> request) {
        return answer(shortCode, request, true);
    }

    @Head("/{shortCode}")
    public HttpResponse<?> head(String shortCode, HttpRequest<?> request) {
        return answer(shortCode, request, false);
    }

    private HttpResponse<?> answer(String shortCode, HttpRequest<?> request, boolean withBody) {
        if (!shortCodes.isWellFormed(shortCode)) {
            throw new ApiException(ApiErrorCode.MALFORMED_SHORT_CODE,
                    "A short code is " + pasteProperties.shortCodeLength() + " characters of 0-9, A-Z, a-z");
        }
        return switch (service.find(shortCode)) {
            case PasteLookup.Absent ignored -> throw new ApiException(ApiErrorCode.PASTE_NOT_FOUND, "No paste " + shortCode);
            case PasteLookup.Pending pending -> pending(pending, withBody);
            case PasteLookup.Readable readable -> readable(readable.paste(), request, withBody);
        };
    }

    private HttpResponse<?> pending(PasteLookup.Pending pending, boolean withBody) {
        Paste paste = pending.paste();
        MutableHttpResponse<Object> response = HttpResponse.accepted()
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(pending.retryAfterSeconds()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .contentType(MediaType.APPLICATION_JSON_TYPE);
        return withBody ? response.body(new PendingPaste(paste.shortCode(), PasteStatus.IN_PROGRESS.name())) : response;
    }

    private HttpResponse<?> readable(Paste paste, HttpRequest<?> request, boolean withBody) {
        boolean json = wantsJson(request);
        String etag = EntityTags.of(paste.contentSha256(), json);
        MutableHttpResponse<Object> response = HttpResponse.ok()
                .header(HttpHeaders.ETAG, etag)
                .header(HttpHeaders.CACHE_CONTROL, IMMUTABLE)
                .header(HttpHeaders.VARY, HttpHeaders.ACCEPT)
                .header("X-Content-Type-Options", "nosniff");
        if (EntityTags.noneMatchHits(request.getHeaders().get(HttpHeaders.IF_NONE_MATCH), etag)) {
            // the client has these bytes already: no S3 call
            return response.status(304);
        }
        if (!withBody) {
            return json ? response.contentType(MediaType.APPLICATION_JSON_TYPE)
                    : response.contentType(TEXT_UTF8).contentLength(paste.sizeBytes());
        }
        byte[] content = service.content(paste);
        if (json) {
            return response.contentType(MediaType.APPLICATION_JSON_TYPE).body(new PasteDocument(paste.shortCode(),
                    paste.status().name(), paste.sizeBytes(), paste.contentSha256(), String.valueOf(paste.createdAt()),
                    new String(content, StandardCharsets.UTF_8)));
        }
        return response.contentType(TEXT_UTF8).body(content);
    }

    /** JSON only when the client prefers it to plain text; browsers and curl ({@code *}/{@code *}) get the bytes. */
    static boolean wantsJson(HttpRequest<?> request) {
        for (MediaType type : request.accept()) {
            if (type.getName().equals(MediaType.APPLICATION_JSON)) {
                return true;
            }
            if (type.getName().equals(MediaType.TEXT_PLAIN) || type.getName().equals("text/*")
                    || type.getName().equals(MediaType.ALL)) {
                return false;
            }
        }
        return false;
    }

}
