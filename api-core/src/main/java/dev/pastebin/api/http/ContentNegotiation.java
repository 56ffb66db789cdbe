package dev.pastebin.api.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;

/** The two representations of a paste's content: its exact bytes as text, or the JSON view. */
public final class ContentNegotiation {

    public static final String TEXT_UTF8 = "text/plain; charset=utf-8";

    private ContentNegotiation() {}

    /**
     * A browser: it prefers HTML to the paste's own representations (what it names first, by quality, among
     * HTML, JSON, plain text and the wildcards is text/html). curl ({@code *}/{@code *}) and API clients are not.
     */
    public static boolean wantsPage(HttpRequest<?> request) {
        for (MediaType type : request.accept()) {
            String name = type.getName();
            if (name.equals(MediaType.TEXT_HTML)) {
                return true;
            }
            if (name.equals(MediaType.APPLICATION_JSON)
                    || name.equals(MediaType.TEXT_PLAIN)
                    || name.equals("text/*")
                    || name.equals(MediaType.ALL)) {
                return false;
            }
        }
        return false;
    }

    /** JSON only when the client prefers it to plain text; browsers and curl ({@code *}/{@code *}) get the bytes. */
    public static boolean wantsJson(HttpRequest<?> request) {
        for (MediaType type : request.accept()) {
            if (type.getName().equals(MediaType.APPLICATION_JSON)) {
                return true;
            }
            if (type.getName().equals(MediaType.TEXT_PLAIN)
                    || type.getName().equals("text/*")
                    || type.getName().equals(MediaType.ALL)) {
                return false;
            }
        }
        return false;
    }
}
