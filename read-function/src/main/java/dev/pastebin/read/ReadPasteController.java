package dev.pastebin.read;

import dev.pastebin.core.http.ContentNegotiation;
import dev.pastebin.core.http.InProgressRetry;
import dev.pastebin.core.http.PasteDocument;
import dev.pastebin.core.http.ReadOncePaste;
import dev.pastebin.core.http.ApiDocs;
import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Head;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;

import static dev.pastebin.core.http.ContentNegotiation.TEXT_UTF8;

/**
 * {@code GET} and {@code HEAD /pastes/{shortCode}}: maps {@link ReadPasteService}'s answer to HTTP. The plain
 * view is the exact bytes as {@code text/plain; charset=utf-8}; {@code Accept: application/json} gets the JSON
 * view. A read-once paste shows only its metadata (the content comes from {@code POST …/reveal}). HEAD answers
 * from the row alone (no S3 call).
 */
@Controller("/pastes")
public class ReadPasteController {

    /**
     * How long a cache may serve a paste without asking again. Its bytes never change, but it can be deleted:
     * this bounds how long a deleted paste lives on in caches (docs/design.md, "Integrity"). Revalidating with
     * the strong ETag is answered 304 from the row, without S3.
     */
    static final Duration CACHE_FOR_AT_MOST = Duration.ofSeconds(60);
    static final String READ_ONCE_HEADER = "Paste-Read-Once";

    private final ReadPasteService service;
    private final ShortCodes shortCodes;
    private final InProgressRetry inProgress;
    private final Clock clock = Clock.systemUTC();

    public ReadPasteController(ReadPasteService service, ShortCodes shortCodes, InProgressRetry inProgress) {
        this.service = service;
        this.shortCodes = shortCodes;
        this.inProgress = inProgress;
    }

    private static final String IF_NONE_MATCH_DOC = "The ETag of a copy the client holds (a list, * and weak tags too): 304 while it is current";

    @Operation(operationId = "readPaste", summary = "Read a paste",
            description = "The exact bytes, or the JSON view with Accept: application/json. A read-once paste shows "
                    + "only its metadata; its content comes from POST /pastes/{shortCode}/reveal. A browser (an Accept "
                    + "that prefers text/html) is sent to the paste's web page, /p/{shortCode}.",
            parameters = @Parameter(name = HttpHeaders.IF_NONE_MATCH, in = ParameterIn.HEADER, description = IF_NONE_MATCH_DOC,
                    schema = @Schema(implementation = String.class)))
    @ApiResponse(responseCode = "200", ref = ApiDocs.PASTE_READ)
    @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING)
    @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @ApiResponse(responseCode = "303", ref = ApiDocs.SEE_PAGE)
    @Get(uri = "/{shortCode}", produces = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON, MediaType.TEXT_HTML}, headRoute = false)
    public HttpResponse<?> read(@Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode")) String shortCode, HttpRequest<?> request) {
        if (ContentNegotiation.wantsPage(request)) {
            // the address command-line clients print: a browser gets the paste's web page, which handles every state
            return HttpResponse.seeOther(URI.create(WebPagesController.VIEW_PATH + shortCodes.requireWellFormed(shortCode)))
                    .header(HttpHeaders.VARY, HttpHeaders.ACCEPT);
        }
        return answer(shortCode, request, true);
    }

    @Operation(operationId = "headPaste", summary = "The headers of a read, answered from the row alone",
            parameters = @Parameter(name = HttpHeaders.IF_NONE_MATCH, in = ParameterIn.HEADER, description = IF_NONE_MATCH_DOC,
                    schema = @Schema(implementation = String.class)))
    @ApiResponse(responseCode = "200", ref = ApiDocs.PASTE_READ)
    @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING)
    @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Head("/{shortCode}")
    public HttpResponse<?> head(@Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode")) String shortCode, HttpRequest<?> request) {
        return answer(shortCode, request, false);
    }

    private HttpResponse<?> answer(String shortCode, HttpRequest<?> request, boolean withBody) {
        return switch (service.find(shortCodes.requireWellFormed(shortCode))) {
            case PasteLookup.Absent ignored -> throw new ApiException(ApiErrorCode.PASTE_NOT_FOUND, "No paste " + shortCode);
            case PasteLookup.Pending pending -> inProgress.response(pending.paste(), withBody);
            case PasteLookup.ReadOnce readOnce -> readOnce(readOnce.paste(), withBody);
            case PasteLookup.Readable readable -> readable(readable.paste(), request, withBody);
        };
    }

    /** JSON whatever the Accept header says: a preview or a crawler sees that there is something, never what. */
    private static HttpResponse<?> readOnce(Paste paste, boolean withBody) {
        MutableHttpResponse<Object> response = HttpResponse.ok()
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header(READ_ONCE_HEADER, "true")
                .contentType(MediaType.APPLICATION_JSON_TYPE);
        return withBody ? response.body(ReadOncePaste.of(paste)) : response;
    }

    private HttpResponse<?> readable(Paste paste, HttpRequest<?> request, boolean withBody) {
        boolean json = ContentNegotiation.wantsJson(request);
        String etag = EntityTags.of(paste.contentSha256(), json);
        MutableHttpResponse<Object> response = HttpResponse.ok()
                .header(HttpHeaders.ETAG, etag)
                .header(HttpHeaders.CACHE_CONTROL, cacheControl(paste))
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
            return response.contentType(MediaType.APPLICATION_JSON_TYPE).body(PasteDocument.of(paste, content));
        }
        return response.contentType(TEXT_UTF8).body(content);
    }

    /** A minute at most, and never past the paste's expiry. */
    private String cacheControl(Paste paste) {
        long seconds = CACHE_FOR_AT_MOST.toSeconds();
        if (paste.expiresAt() != null) {
            seconds = Math.min(seconds, Math.max(0, Duration.between(clock.instant(), paste.expiresAt()).toSeconds()));
        }
        return "public, max-age=" + seconds;
    }
}
