package dev.pastebin.api.http;

/**
 * Names of the shared responses of the API document (api-core/src/main/openapi/responses.yml), for the
 * {@code @ApiResponse(ref = …)} of each controller's API interface ({@code CreatePasteApi}, {@code ReadPasteApi},
 * …): the response shapes live in one place, the interfaces say which statuses each operation answers. They list
 * them in {@code @Operation(responses = …)}: micronaut-openapi reads a method-level {@code @ApiResponse} only
 * where it is declared, on the controller, and would add a 200 of its own to an operation whose success is
 * another status (DELETE's 204).
 */
public final class ApiDocs {

    private static final String RESPONSES = "#/components/responses/";
    public static final String SCHEMAS = "#/components/schemas/";

    public static final String ERROR = RESPONSES + "Error";
    public static final String UNAVAILABLE = RESPONSES + "Unavailable";
    public static final String API_KEY_REFUSED = RESPONSES + "ApiKeyRefused";
    public static final String API_KEY_QUOTA_EXCEEDED = RESPONSES + "ApiKeyQuotaExceeded";
    public static final String CREATED = RESPONSES + "Created";
    public static final String URL_LINE = RESPONSES + "UrlLine";
    public static final String PENDING = RESPONSES + "Pending";
    public static final String PASTE_READ = RESPONSES + "PasteRead";
    public static final String NOT_MODIFIED = RESPONSES + "NotModified";
    public static final String SEE_PAGE = RESPONSES + "SeePage";
    public static final String REVEALED = RESPONSES + "Revealed";
    public static final String DELETED = RESPONSES + "Deleted";
    public static final String HASTE_CREATED = RESPONSES + "HasteCreated";
    public static final String HASTE_DOCUMENT = RESPONSES + "HasteDocument";
    public static final String RAW_PASTE = RESPONSES + "RawPaste";
    public static final String REPORT_RECEIVED = RESPONSES + "ReportReceived";

    /** The short code path parameter's description (its schema, ShortCode, has the default length). */
    public static final String SHORT_CODE =
            "As POST /pastes answered it: 11 (older pastes: 8) characters of 0-9, A-Z, a-z (other values: 400)";

    private ApiDocs() {}
}
