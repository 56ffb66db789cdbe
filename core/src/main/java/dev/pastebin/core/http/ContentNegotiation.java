package dev.pastebin.core.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;

/** The two representations of a paste's content: its exact bytes as text, or the JSON view. */
public final class ContentNegotiation {

    public static final String TEXT_UTF8 = "text/plain; charset=utf-8";

    private ContentNegotiation() {
    }

    /** JSON only when the client prefers it to plain text; browsers and curl ({@code *}/{@code *}) get the bytes. */
    public static boolean wantsJson(HttpRequest<?> request) {
        for (MediaType type : request.accept()) {
            if (type.getName().equals(MediaType.APPLICATION_JSON)) {
                return true;
            }
            if (type.getName().equals(MediaType.TEXT_PLAIN) || type.getName().equals("text/*")
                    || type.getName().equals(MediaType.ALL)) {
                return false;
            }
        }
        return false;
    }
}
