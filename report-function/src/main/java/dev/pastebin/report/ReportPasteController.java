package dev.pastebin.report;

import dev.pastebin.api.http.EdgeRequests;
import dev.pastebin.api.http.RawBody;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;

/**
 * {@code POST /pastes/{shortCode}/report}: anyone may report a paste to the operator (docs/using.md, "Reporting a
 * paste"), as JSON or as an HTML form posts it. Maps HTTP to {@link ReportPasteService} and back. Documented in
 * docs/openapi.yaml, which OpenApiDocumentTest holds to this controller.
 */
@Controller("/pastes")
public class ReportPasteController {

    private final ReportPasteService service;
    private final ReportBodyReader reader;
    private final ReporterAddresses reporters;
    private final ShortCodes shortCodes;

    public ReportPasteController(
            ReportPasteService service, ReportBodyReader reader, ReporterAddresses reporters, ShortCodes shortCodes) {
        this.service = service;
        this.reader = reader;
        this.reporters = reporters;
        this.shortCodes = shortCodes;
    }

    /**
     * Every Content-Type reaches the route, so that the reader answers 415 with the project's error body, not the
     * router with its own.
     */
    @Post(uri = "/{shortCode}/report", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<ReportReceipt> report(String shortCode, RawBody body, HttpRequest<?> request) {
        String code = shortCodes.requireWellFormed(shortCode);
        ReportForm form = reader.read(body.bytes(), request.getContentType().orElse(null));
        AbuseReport report =
                new AbuseReport(code, form.reason(), form.text(), form.contact(), reporters.hashOf(request));
        String pageUrl = EdgeRequests.publicHost(request)
                .map(host -> "https://" + host + "/p/" + code)
                .orElse(null);
        service.report(report, pageUrl);
        return HttpResponse.<ReportReceipt>status(HttpStatus.ACCEPTED)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(ReportReceipt.of(code));
    }
}
