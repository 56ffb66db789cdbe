package dev.pastebin.api.http;

import dev.pastebin.core.paste.ApiKeyInvalidException;
import dev.pastebin.core.paste.ApiKeyQuotaExceededException;
import dev.pastebin.core.paste.ApiKeyRequiredException;
import dev.pastebin.core.paste.PasteRefusal;
import dev.pastebin.core.paste.SignInRequiredException;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.MutableHttpResponse;

/**
 * The headers of an API key's refusal, in every protocol's answer: a 401 says how to authenticate
 * ({@code WWW-Authenticate: Bearer realm="pastebin"}, RFC 6750 section 3, with {@code error="invalid_request"} for a
 * credential that is not a bearer token and {@code error="invalid_token"} for an unknown or revoked key; none when
 * no credential was sent, as section 3.1 asks), a 429 when the key's next day starts ({@code Retry-After}).
 */
public final class ApiKeyChallenges {

    public static final String REALM = "pastebin";

    private ApiKeyChallenges() {}

    /** Adds the refusal's headers, if it is an API key's; other refusals are left as they are. */
    public static void addHeaders(PasteRefusal refusal, MutableHttpResponse<?> response) {
        switch (refusal) {
            case ApiKeyRequiredException required ->
                response.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"" + REALM + "\"");
            case SignInRequiredException required ->
                response.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"" + REALM + "\"");
            case ApiKeyInvalidException invalid ->
                response.header(
                        HttpHeaders.WWW_AUTHENTICATE,
                        "Bearer realm=\"" + REALM + "\", error=\""
                                + (invalid.reason() == ApiKeyInvalidException.Reason.MALFORMED
                                        ? "invalid_request"
                                        : "invalid_token")
                                + "\"");
            case ApiKeyQuotaExceededException quota ->
                response.header(HttpHeaders.RETRY_AFTER, Long.toString(quota.retryAfterSeconds()));
            default -> {}
        }
    }
}
