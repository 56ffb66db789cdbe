package dev.pastebin.report;

import dev.pastebin.api.http.ApiDocs;
import dev.pastebin.api.http.RawBody;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * The API document's part for {@code POST /pastes/{shortCode}/report} (docs/openapi.yaml): micronaut-openapi reads
 * these annotations through {@link ReportPasteController}, which implements this and holds the route.
 */
interface ReportPasteApi {

    @Operation(
            operationId = "reportPaste",
            summary = "Report a paste to the operator",
            description = "A reason from a fixed list (illegal, malware, phishing, personal-data, copyright, spam, "
                    + "other), optional text (at most 2,000 characters) and contact (at most 320), as JSON or as an "
                    + "HTML form posts them (application/x-www-form-urlencoded). Stored with a keyed hash of the "
                    + "caller's address, never the paste's content; the operator is notified at most once per paste "
                    + "per hour. A paste readers cannot see (unknown, expired, deleted, taken down) answers 404 "
                    + "PASTE_NOT_FOUND, as a read does.",
            requestBody =
                    @RequestBody(
                            required = true,
                            content = {
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "AbuseReport")),
                                @Content(
                                        mediaType = MediaType.APPLICATION_FORM_URLENCODED,
                                        schema = @Schema(ref = ApiDocs.SCHEMAS + "AbuseReport"))
                            }),
            responses = {
                @ApiResponse(responseCode = "202", ref = ApiDocs.REPORT_RECEIVED),
                @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "413", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "415", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
            })
    HttpResponse<ReportReceipt> report(
            @Parameter(description = ApiDocs.SHORT_CODE, schema = @Schema(ref = ApiDocs.SCHEMAS + "ShortCode"))
                    String shortCode,
            @Parameter(hidden = true) RawBody body,
            HttpRequest<?> request);
}
