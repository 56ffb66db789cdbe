package dev.pastebin.api.http;

import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.uri.UriMatchInfo;
import io.micronaut.web.router.RouteAttributes;
import org.slf4j.MDC;

/**
 * The log context of an HTTP request beyond what {@code InvocationLogContext} sets: the {@code shortCode} of a
 * route on one paste ({@code /pastes/{shortCode}}), when it is one that could have been issued (anything else
 * is only client input, and the path is logged on errors anyway). Creating a paste adds its code once drawn.
 * When the response is done, after the error processor has logged, the MDC is cleared: the invocation is over.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
// only the HTTP functions bring the API Gateway proxy (core declares it optional)
public class PasteLogContextFilter {

    private static final String SHORT_CODE_VARIABLE = "shortCode";

    private final ShortCodes shortCodes;

    public PasteLogContextFilter(ShortCodes shortCodes) {
        this.shortCodes = shortCodes;
    }

    @RequestFilter
    public void shortCodeOfTheRoute(HttpRequest<?> request) {
        RouteAttributes.getRouteMatch(request)
                .filter(UriMatchInfo.class::isInstance)
                .map(match -> ((UriMatchInfo) match).getVariableValues().get(SHORT_CODE_VARIABLE))
                .filter(code -> code instanceof String s && shortCodes.isWellFormed(s))
                .ifPresent(code -> MDC.put(LogContext.SHORT_CODE, (String) code));
    }

    @ResponseFilter
    public void invocationDone() {
        MDC.clear();
    }
}
