package dev.pastebin.read;

import static dev.pastebin.api.http.ContentNegotiation.TEXT_UTF8;

import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.api.http.ContentNegotiation;
import dev.pastebin.api.http.InProgressAnswer;
import dev.pastebin.api.http.PasteDocument;
import dev.pastebin.api.read.LargeFileLinks;
import dev.pastebin.api.read.PasteLookup;
import dev.pastebin.api.read.ReadPasteService;
import dev.pastebin.core.paste.Paste;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;

/**
 * A paste lookup ({@link ReadPasteService}) as HTTP, for every read route: the API's ({@code /pastes/{code}}) and
 * the haste protocol's ({@code /{key}}, {@code /raw/{key}}, {@code /documents/{key}}). Each state answers the
 * same way on all of them: 202 with Retry-After while being stored, 404 when gone; only the stored paste's
 * representation differs by route. The short code is well-formed by now.
 */
@Singleton
class PasteAnswers {

    /**
     * How long a cache may serve a paste without asking again. Its bytes never change, but it can be deleted:
     * this bounds how long a deleted paste lives on in caches (docs/design.md, "Integrity"). Revalidating with
     * the strong ETag is answered 304 from the row, without S3.
     */
    static final Duration CACHE_FOR_AT_MOST = Duration.ofSeconds(60);

    static final String READ_ONCE_HEADER = "Paste-Read-Once";

    /** How a stored paste is shown by a route. */
    enum View {
        /** The exact bytes, or the JSON view to a client that prefers JSON; a read-once paste: its metadata. */
        NEGOTIATED,
        /** The exact bytes whatever Accept says; a read-once paste is refused (409), never revealed by a GET. */
        TEXT,
        /** Haste's {@code {"key", "data"}}; a read-once paste is refused (409) as for TEXT. */
        HASTE_DOCUMENT
    }

    private final ReadPasteService service;
    private final InProgressAnswer inProgress;
    private final LargeFileLinks largeFiles;
    private final Clock clock = Clock.systemUTC();

    PasteAnswers(ReadPasteService service, InProgressAnswer inProgress, LargeFileLinks largeFiles) {
        this.service = service;
        this.inProgress = inProgress;
        this.largeFiles = largeFiles;
    }

    HttpResponse<?> answer(String shortCode, View view, HttpRequest<?> request, boolean withBody) {
        return switch (service.find(shortCode)) {
            case PasteLookup.Absent ignored ->
                throw new ApiException(
                        ApiErrorCode.PASTE_NOT_FOUND,
                        view == View.NEGOTIATED ? "No paste " + shortCode : "Document not found.");
            case PasteLookup.Pending pending -> inProgress.response(pending.paste(), withBody);
            case PasteLookup.ReadOnce readOnce -> {
                if (view != View.NEGOTIATED) {
                    throw new ApiException(
                            ApiErrorCode.READ_ONCE,
                            "This paste can be read once only: reveal it with " + "POST /pastes/" + shortCode
                                    + "/reveal, which deletes it");
                }
                yield readOnce(readOnce.paste(), withBody);
            }
            case PasteLookup.Readable readable -> readable(readable.paste(), view, request, withBody);
        };
    }

    /**
     * The address command-line clients print, opened by a browser: its web page, which handles every state. Decided
     * from Accept alone, before any lookup.
     */
    static HttpResponse<?> seePage(String shortCode) {
        return HttpResponse.seeOther(URI.create(WebPagesController.VIEW_PATH + shortCode))
                .header(HttpHeaders.VARY, HttpHeaders.ACCEPT);
    }

    /** JSON whatever the Accept header says: a preview or a crawler sees that there is something, never what. */
    private static HttpResponse<?> readOnce(Paste paste, boolean withBody) {
        MutableHttpResponse<Object> response = HttpResponse.ok()
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header(READ_ONCE_HEADER, "true")
                .contentType(MediaType.APPLICATION_JSON_TYPE);
        return withBody ? response.body(ReadOncePaste.of(paste)) : response;
    }

    private HttpResponse<?> readable(Paste paste, View view, HttpRequest<?> request, boolean withBody) {
        boolean json =
                view == View.HASTE_DOCUMENT || (view == View.NEGOTIATED && ContentNegotiation.wantsJson(request));
        if (largeFiles.isLarge(paste)) {
            boolean listing =
                    view == View.NEGOTIATED && json && request.getParameters().get(FILE_PARAMETER) == null;
            return listing ? largeFileList(paste, withBody) : largeFile(paste, request);
        }
        String etag = EntityTags.of(paste.contentSha256(), json);
        MutableHttpResponse<Object> response = HttpResponse.ok()
                .header(HttpHeaders.ETAG, etag)
                .header(HttpHeaders.CACHE_CONTROL, cacheControl(paste))
                .header("X-Content-Type-Options", "nosniff");
        if (view == View.NEGOTIATED) {
            response.header(HttpHeaders.VARY, HttpHeaders.ACCEPT);
        }
        if (EntityTags.noneMatchHits(request.getHeaders().get(HttpHeaders.IF_NONE_MATCH), etag)) {
            // the client has these bytes already: no S3 call
            return response.status(304);
        }
        if (!withBody) {
            return json
                    ? response.contentType(MediaType.APPLICATION_JSON_TYPE)
                    : response.contentType(TEXT_UTF8).contentLength(paste.sizeBytes());
        }
        byte[] content = service.content(paste);
        return switch (view) {
            case HASTE_DOCUMENT ->
                response.contentType(MediaType.APPLICATION_JSON_TYPE).body(HasteDocument.of(paste, content));
            case NEGOTIATED ->
                json
                        ? response.contentType(MediaType.APPLICATION_JSON_TYPE).body(PasteDocument.of(paste, content))
                        : response.contentType(TEXT_UTF8).body(content);
            case TEXT -> response.contentType(TEXT_UTF8).body(content);
        };
    }

    /**
     * A large paste's file (docs/design.md, "Large files: straight to S3"): 307 to a pre-signed GET that S3 answers
     * with the file's Content-Type and name, and where Range works; never the bytes through the function. The file is
     * {@code ?file=<n>} (from 0; default the first). The link is short-lived and this answer never cached: a link must
     * not outlive a delete or a takedown by more than its own few minutes.
     */
    private HttpResponse<?> largeFile(Paste paste, HttpRequest<?> request) {
        int position;
        String file = request.getParameters().get(FILE_PARAMETER);
        try {
            position = file == null ? 0 : Integer.parseInt(file);
        } catch (NumberFormatException e) {
            throw new ApiException(ApiErrorCode.BAD_REQUEST, "file must be a file's position in the paste, from 0");
        }
        return HttpResponse.temporaryRedirect(
                        URI.create(largeFiles.link(paste, position).toString()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store");
    }

    /**
     * The JSON view of a large paste without {@code ?file=}: its files and their read addresses (what the web page
     * lists), not a redirect to the first file's bytes. Cached as a small paste's view is: its rows never change.
     */
    private HttpResponse<?> largeFileList(Paste paste, boolean withBody) {
        MutableHttpResponse<Object> response = HttpResponse.ok()
                .header(HttpHeaders.CACHE_CONTROL, cacheControl(paste))
                .header(HttpHeaders.VARY, HttpHeaders.ACCEPT)
                .contentType(MediaType.APPLICATION_JSON_TYPE);
        return withBody ? response.body(LargePasteDocument.of(paste, largeFiles.files(paste))) : response;
    }

    /** The query parameter that picks a large paste's file. */
    static final String FILE_PARAMETER = "file";

    /**
     * A minute at most, and never past the paste's expiry. stale-if-error=0: a cache whose revalidation fails
     * (CloudFront on a 5xx or a timeout) must not serve its expired copy instead, which would keep a deleted paste
     * visible for as long as the read function fails.
     */
    private String cacheControl(Paste paste) {
        long seconds = CACHE_FOR_AT_MOST.toSeconds();
        if (paste.expiresAt() != null) {
            seconds = Math.min(
                    seconds,
                    Math.max(
                            0,
                            Duration.between(clock.instant(), paste.expiresAt()).toSeconds()));
        }
        return "public, max-age=" + seconds + ", stale-if-error=0";
    }
}
