package dev.pastebin.read;

import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.core.storage.LargeFileStore;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;

/**
 * The web pages (docs/design.md, "Web page"): {@code GET /} to create a paste, {@code GET /p/{shortCode}} to
 * view one, {@code GET /assets/{file}} for their scripts and style sheet. The pages are static; their scripts
 * call the JSON API, so this controller only serves files from {@link WebAssets}' allow-list. The view page is
 * the same for every short code: its script reads the code from the address and the API judges it. Pages are
 * not part of the API, so they stay out of its OpenAPI document (OpenApiDocumentTest's NOT_API).
 */
@Controller
public class WebPagesController {

    /** Where a paste's web page is: this and its short code. */
    static final String VIEW_PATH = "/p/";

    /**
     * No inline script or style, nothing from elsewhere: a paste that smuggles markup in has nothing to run. The one
     * other origin is the paste bucket's endpoint, which the create page sends a large paste's files to with their
     * pre-signed PUTs (docs/design.md, "Large files: straight to S3").
     */
    static String contentSecurityPolicy(String bucketOrigin) {
        return "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' " + bucketOrigin
                + "; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    }

    /**
     * A worker runs under the policy delivered with its own script, not the page's: the highlight worker may
     * import scripts from here and do nothing else (no fetch, no other origin). On the other scripts it changes
     * nothing, as a module's policy does not apply to the page that loads it.
     */
    static final String SCRIPT_CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'";
    /** Pages are revalidated on every load (a 304 while unchanged), so a deploy reaches browsers at once. */
    static final String PAGE_CACHING = "no-cache";
    /** Scripts and styles may be a few minutes older than the page that loads them. */
    static final String ASSET_CACHING = "public, max-age=300";

    private final WebAssets assets;
    private final String pagePolicy;

    public WebPagesController(WebAssets assets, LargeFileStore largeFiles) {
        this.assets = assets;
        this.pagePolicy = contentSecurityPolicy(largeFiles.requestOrigin());
    }

    // A route that declares no produces is taken to produce application/json, and Micronaut's router answered
    // GET / with Accept: text/html alone (no wildcard) 406 against that default. Each route declares what it
    // serves. The router compares Accept with produces literally, */* being its only wildcard, so the pages also
    // name text/*: a client that takes any text takes HTML (RFC 9110, section 12.5.1). One that takes only
    // text/plain or JSON is still answered 406: a page has no such representation.
    static final String ANY_TEXT = "text/*";

    @Get(
            uri = "/",
            produces = {MediaType.TEXT_HTML, ANY_TEXT})
    public HttpResponse<?> createPage(HttpRequest<?> request) {
        return serve(assets.page(WebAssets.CREATE_PAGE), request);
    }

    @Get(
            uri = "/p/{shortCode}",
            produces = {MediaType.TEXT_HTML, ANY_TEXT})
    public HttpResponse<?> viewPage(String shortCode, HttpRequest<?> request) {
        return serve(assets.page(WebAssets.VIEW_PAGE), request);
    }

    @Get(
            uri = "/assets/{file}",
            produces = {WebAssets.JAVASCRIPT, WebAssets.CSS})
    public HttpResponse<?> asset(String file, HttpRequest<?> request) {
        return serve(
                assets.file(file).orElseThrow(() -> new ApiException(ApiErrorCode.NOT_FOUND, "No asset " + file)),
                request);
    }

    private HttpResponse<?> serve(WebAssets.Asset asset, HttpRequest<?> request) {
        MutableHttpResponse<Object> response = HttpResponse.ok()
                .header(HttpHeaders.ETAG, asset.etag())
                .header(HttpHeaders.CACHE_CONTROL, asset.isPage() ? PAGE_CACHING : ASSET_CACHING)
                .header("X-Content-Type-Options", "nosniff");
        if (asset.isPage()) {
            response.header("Content-Security-Policy", pagePolicy)
                    // the address of a view page is the key to a paste: never hand it to another site
                    .header("Referrer-Policy", "no-referrer");
        } else if (asset.isScript()) {
            response.header("Content-Security-Policy", SCRIPT_CONTENT_SECURITY_POLICY);
        }
        if (EntityTags.noneMatchHits(request.getHeaders().get(HttpHeaders.IF_NONE_MATCH), asset.etag())) {
            return response.status(304);
        }
        return response.contentType(asset.contentType()).body(asset.bytes());
    }
}
