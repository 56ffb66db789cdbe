package dev.pastebin.read;

import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.api.http.EdgeRequests;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * {@code GET /.well-known/security.txt} (RFC 9116): the abuse contact, where security and abuse reports go, with an
 * {@code Expires} a fixed time ahead of each answer (RFC 9116 asks for less than a year) so that it never goes
 * stale while the stack runs. With no contact configured there is nothing to say: 404. Not part of the API.
 */
@Controller
public class SecurityTxtController {

    /** How far ahead {@code Expires} is: well within RFC 9116's year, and refreshed by every answer. */
    static final Duration EXPIRES_AFTER = Duration.ofDays(180);

    static final String PATH = "/.well-known/security.txt";

    private final AbuseContact abuse;
    private final Clock clock;

    public SecurityTxtController(AbuseContact abuse) {
        this(abuse, Clock.systemUTC());
    }

    SecurityTxtController(AbuseContact abuse, Clock clock) {
        this.abuse = abuse;
        this.clock = clock;
    }

    @Get(
            uri = PATH,
            produces = {MediaType.TEXT_PLAIN, WebPagesController.ANY_TEXT})
    public HttpResponse<String> securityTxt(HttpRequest<?> request) {
        String contact = abuse.uri()
                .orElseThrow(() -> new ApiException(ApiErrorCode.NOT_FOUND, "No abuse contact is configured"));
        Instant expires = clock.instant().plus(EXPIRES_AFTER).truncatedTo(ChronoUnit.DAYS);
        StringBuilder text = new StringBuilder()
                .append("Contact: ")
                .append(contact)
                .append('\n')
                .append("Expires: ")
                .append(expires)
                .append('\n')
                .append("Preferred-Languages: en\n");
        EdgeRequests.publicHost(request)
                .ifPresent(host -> text.append("Canonical: https://")
                        .append(host)
                        .append(PATH)
                        .append('\n'));
        return HttpResponse.ok(text.toString())
                .contentType("text/plain; charset=utf-8")
                // a day at most in a cache: a changed contact reaches readers by then
                .header(HttpHeaders.CACHE_CONTROL, "public, max-age=86400")
                .header("X-Content-Type-Options", "nosniff");
    }
}
