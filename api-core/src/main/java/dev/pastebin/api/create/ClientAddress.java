package dev.pastebin.api.create;

/**
 * The address of the client behind a create, as the HTTP layer derived it (api-core's {@code EdgeRequests}: the
 * viewer CloudFront names on a request that came through the verified edge, API Gateway's source address otherwise;
 * never a header the client sets freely): a plain value, so the use case knows nothing of requests. It decides the
 * upload job's message group when the create carried no API key ({@link UploadGroup}).
 *
 * @param value an IPv4 or IPv6 literal as API Gateway or CloudFront wrote it; anything else is taken as it is
 */
public record ClientAddress(String value) {

    /** A request that did not come from API Gateway (tests; none in production). */
    public static final ClientAddress UNKNOWN = new ClientAddress("unknown");

    /** Hides the address: it is personal data, and a record's {@code toString} ends up in logs. */
    @Override
    public String toString() {
        return "ClientAddress[…]";
    }
}
