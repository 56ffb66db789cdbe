package dev.pastebin.read;

import dev.pastebin.api.http.ApiDocs;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * The API document's part for the haste protocol's reads (docs/openapi.yaml): micronaut-openapi reads these
 * annotations through {@link HasteReadController}, which implements this and holds the routes.
 */
interface HasteReadApi {

    String KEY_DOC = "A short code, optionally followed by a file extension that is ignored "
            + "(aB3xYz9QkLm.py), as haste clients write it";

    @Operation(
            operationId = "readHasteDocument",
            summary = "Read a paste as a haste document",
            description = "The haste protocol's read: {\"key\", \"data\"} once stored. A read-once paste is not "
                    + "revealed here (409 READ_ONCE): POST /pastes/{shortCode}/reveal shows it, once.",
            responses = {
                @ApiResponse(responseCode = "200", ref = ApiDocs.HASTE_DOCUMENT),
                @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING),
                @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED),
                @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "409", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
            })
    HttpResponse<?> document(
            @Parameter(description = KEY_DOC, schema = @Schema(ref = ApiDocs.SCHEMAS + "DocumentKey")) String key,
            HttpRequest<?> request);

    @Operation(
            operationId = "readHasteRaw",
            summary = "Read a paste's exact bytes (haste's raw URL)",
            description = "The exact bytes as text/plain once stored, whatever Accept says. A read-once paste is not "
                    + "revealed here (409 READ_ONCE).",
            responses = {
                @ApiResponse(responseCode = "200", ref = ApiDocs.RAW_PASTE),
                @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING),
                @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED),
                @ApiResponse(responseCode = "400", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "409", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
            })
    HttpResponse<?> raw(
            @Parameter(description = KEY_DOC, schema = @Schema(ref = ApiDocs.SCHEMAS + "DocumentKey")) String key,
            HttpRequest<?> request);

    @Operation(
            operationId = "readPasteAtRoot",
            summary = "A paste at the URL haste clients print",
            description = "As GET /pastes/{shortCode} (readPaste): the exact bytes to curl (Accept */* or none), the "
                    + "JSON view with Accept: application/json, a read-once paste's metadata; a browser is sent to the "
                    + "paste's web page. A key that is no short code answers 404 NOT_FOUND.",
            responses = {
                @ApiResponse(responseCode = "200", ref = ApiDocs.PASTE_READ),
                @ApiResponse(responseCode = "202", ref = ApiDocs.PENDING),
                @ApiResponse(responseCode = "303", ref = ApiDocs.SEE_PAGE),
                @ApiResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED),
                @ApiResponse(responseCode = "404", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "406", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "500", ref = ApiDocs.ERROR),
                @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
            })
    HttpResponse<?> atRoot(
            @Parameter(
                            name = "shortCode",
                            description = KEY_DOC,
                            schema = @Schema(ref = ApiDocs.SCHEMAS + "DocumentKey"))
                    String key,
            HttpRequest<?> request);
}
