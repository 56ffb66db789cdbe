package dev.pastebin.api.http;

import io.micronaut.http.HttpRequest;

/**
 * Which requests have their errors written as one {@code text/plain} line instead of the JSON body: those of
 * command-line clients that print whatever body they get (curl -F, pastebinit). A controller marks the request
 * once it knows the client's convention; {@link ApiErrorResponseProcessor} writes every error of it, its own or a
 * dependency's, that way, with the same status and headers.
 */
public final class PlainTextErrors {

    private static final String ATTRIBUTE = "pastebin.errors.plain-text";

    private PlainTextErrors() {}

    public static void answerErrorsAsTextLine(HttpRequest<?> request) {
        request.setAttribute(ATTRIBUTE, Boolean.TRUE);
    }

    static boolean wanted(HttpRequest<?> request) {
        return request.getAttribute(ATTRIBUTE, Boolean.class).orElse(false);
    }
}
