package dev.pastebin.api.http;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.pastebin.api.create.CreateCredential;
import io.micronaut.core.annotation.Nullable;

/**
 * A create's credential from its {@code Authorization} header (RFC 6750, section 2.1): {@code Bearer <token>}, the
 * scheme in any case. No header: {@link CreateCredential#NONE}; any other value: {@link CreateCredential#MALFORMED}.
 */
public final class BearerCredentials {

    /** RFC 6750's b64token after the scheme and one or more spaces, matched in linear time (re2j): a client's input. */
    private static final Pattern BEARER = Pattern.compile("[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9._~+/-]+=*) *");

    private BearerCredentials() {}

    public static CreateCredential of(@Nullable String authorization) {
        if (authorization == null || authorization.isBlank()) {
            return CreateCredential.NONE;
        }
        Matcher bearer = BEARER.matcher(authorization);
        return bearer.matches() ? new CreateCredential.Bearer(bearer.group(1)) : CreateCredential.MALFORMED;
    }
}
