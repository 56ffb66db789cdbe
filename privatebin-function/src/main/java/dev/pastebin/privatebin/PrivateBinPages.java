package dev.pastebin.privatebin;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a browser gets at the PrivateBin URL: short static pages, no script. A paste's link opened in a browser (or
 * fetched by a link preview) is told how to read it with a client and never reads it, so it cannot burn a paste;
 * the key is in the link's fragment, which no browser sends. The index lists the expiry values where pbcli's
 * {@code --scrape-expiries} looks for them ({@code #expiration + ul > li > a[data-expiration]}).
 */
final class PrivateBinPages {

    private static String head(String title) {
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>%s</title>
            <style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}\
            code{background:#8882;padding:0 .2em}</style>
            </head>
            <body>
            """.formatted(title);
    }

    private static final String TAIL = """
            <p><a href="/">Create a paste on the web page</a></p>
            </body>
            </html>
            """;

    private PrivateBinPages() {}

    static MutableHttpResponse<String> index() {
        String expiries = Arrays.stream(PrivateBinExpiry.values())
                .map(e -> "<li><a href=\"#\" data-expiration=\"" + e.value() + "\">" + e.value() + "</a></li>")
                .collect(Collectors.joining("\n"));
        return page(HttpStatus.OK, "Encrypted pastes", """
                <h1>Encrypted pastes</h1>
                <p>This address speaks PrivateBin's API (format v2). Its command-line clients encrypt on your
                machine and send only ciphertext; the key travels in the link's fragment (after <code>#</code>),
                which is never sent to a server.</p>
                <p>Give this address as the server of <code>pbincli</code>, <code>pbcli</code> or the Go client
                <code>privatebin</code>.</p>
                <h2 id="expiration">Expiry</h2>
                <ul>
                %s
                </ul>
                """.formatted(expiries));
    }

    /**
     * A paste's link in a browser: 303 to the web page of the paste ({@code /p/{id}}), which reads it with
     * PrivateBin's API and decrypts it in the browser. The browser keeps the link's fragment (the key) across the
     * redirect; nothing is read here, and the page asks before it opens a paste that burns after reading.
     */
    static MutableHttpResponse<String> webPage(String pasteId) {
        return HttpResponse.<String>status(HttpStatus.SEE_OTHER)
                .header(HttpHeaders.LOCATION, "/p/" + pasteId)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("Referrer-Policy", "no-referrer");
    }

    /** The delete link clients print, opened in a browser. */
    static MutableHttpResponse<String> deleteResult(boolean deleted, String message) {
        return page(
                HttpStatus.OK,
                deleted ? "Paste deleted" : "Paste not deleted",
                "<h1>" + (deleted ? "Paste deleted" : "Paste not deleted") + "</h1>\n<p>" + escape(message) + "</p>\n");
    }

    private static MutableHttpResponse<String> page(HttpStatus status, String title, String body) {
        return HttpResponse.<String>status(status)
                .contentType(MediaType.TEXT_HTML + ";charset=utf-8")
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Frame-Options", "DENY")
                .header("Referrer-Policy", "no-referrer")
                .body(head(escape(title)) + body + TAIL);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
