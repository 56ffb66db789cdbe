package dev.pastebin.read;

import dev.pastebin.core.paste.ContentHash;
import io.micronaut.core.io.ResourceResolver;
import io.micronaut.http.MediaType;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The web pages' files (classpath {@code web/}), read once at start-up (so SnapStart's snapshot holds them) and
 * served only from this allow-list: a request can never name any other classpath resource. Vendored files
 * (classpath {@code web/vendor/}, each with its license) are served under their own names, next to ours. The
 * pages' {@value #ABUSE_CONTACT_SLOT} is replaced by the configured abuse contact ({@link AbuseContact}), or by
 * nothing when there is none.
 */
@Singleton
public class WebAssets {

    static final String CREATE_PAGE = "index.html";
    static final String VIEW_PAGE = "view.html";
    static final String JAVASCRIPT = "text/javascript";
    static final String CSS = "text/css";

    private static final String HIGHLIGHT_JS = "vendor/highlight/";
    /** Where a page shows the abuse contact. */
    static final String ABUSE_CONTACT_SLOT = "<!-- abuse contact -->";

    /** Each file the pages use, by the name it is served as, with its type. JavaScript is text/javascript (RFC 9239). */
    private static final Map<String, File> FILES = Map.ofEntries(
            served(CREATE_PAGE, CREATE_PAGE, "text/html; charset=utf-8"),
            served(VIEW_PAGE, VIEW_PAGE, "text/html; charset=utf-8"),
            served("pastebin.css", "pastebin.css", CSS + "; charset=utf-8"),
            served("api.js", "api.js", JAVASCRIPT + "; charset=utf-8"),
            served("create.js", "create.js", JAVASCRIPT + "; charset=utf-8"),
            served("view.js", "view.js", JAVASCRIPT + "; charset=utf-8"),
            served("lines.js", "lines.js", JAVASCRIPT + "; charset=utf-8"),
            served("privatebin.js", "privatebin.js", JAVASCRIPT + "; charset=utf-8"),
            served("highlight-worker.js", "highlight-worker.js", JAVASCRIPT + "; charset=utf-8"),
            served("highlight.min.js", HIGHLIGHT_JS + "highlight.min.js", JAVASCRIPT + "; charset=utf-8"),
            served("github.min.css", HIGHLIGHT_JS + "github.min.css", CSS + "; charset=utf-8"),
            served("github-dark.min.css", HIGHLIGHT_JS + "github-dark.min.css", CSS + "; charset=utf-8"));

    /** Where a served file is on the classpath, under {@code web/}, and its type. */
    private record File(String resource, String contentType) {}

    private static Map.Entry<String, File> served(String name, String resource, String contentType) {
        return Map.entry(name, new File(resource, contentType));
    }

    /** A file ready to serve: its bytes, type and strong entity tag (the SHA-256 of the bytes). */
    public record Asset(String name, MediaType contentType, byte[] bytes, String etag) {
        public boolean isPage() {
            return contentType.getName().equals(MediaType.TEXT_HTML);
        }

        public boolean isScript() {
            return contentType.getName().equals(JAVASCRIPT);
        }
    }

    private final Map<String, Asset> assets;

    public WebAssets(ResourceResolver resources, AbuseContact abuse) {
        String contact = abuseContactHtml(abuse);
        this.assets = FILES.entrySet().stream()
                .map(file -> load(resources, file.getKey(), file.getValue(), contact))
                .collect(Collectors.toUnmodifiableMap(Asset::name, Function.identity()));
    }

    /** The footer's text: "Report abuse: <a href=…>…</a>", escaped; nothing without a contact. */
    static String abuseContactHtml(AbuseContact abuse) {
        return abuse.uri()
                .map(uri -> "Report abuse to <a id=\"abuse-contact\" href=\"" + escapeHtml(uri) + "\">"
                        + escapeHtml(abuse.label().orElseThrow()) + "</a>.")
                .orElse("");
    }

    private static String escapeHtml(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&#39;");
    }

    public Asset page(String name) {
        return assets.get(name);
    }

    /** The script or style sheet of that name; HTML pages only through their own routes. */
    public Optional<Asset> file(String name) {
        return Optional.ofNullable(assets.get(name)).filter(asset -> !asset.isPage());
    }

    Stream<Asset> all() {
        return assets.values().stream();
    }

    private static Asset load(ResourceResolver resources, String name, File file, String abuseContactHtml) {
        try (InputStream in = resources
                .getResourceAsStream("classpath:web/" + file.resource())
                .orElseThrow(
                        () -> new IllegalStateException("web/" + file.resource() + " is missing from the artifact"))) {
            byte[] bytes = in.readAllBytes();
            if (file.contentType().startsWith("text/html")) {
                bytes = new String(bytes, StandardCharsets.UTF_8)
                        .replace(ABUSE_CONTACT_SLOT, abuseContactHtml)
                        .getBytes(StandardCharsets.UTF_8);
            }
            return new Asset(name, MediaType.of(file.contentType()), bytes, "\"" + ContentHash.sha256Hex(bytes) + "\"");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
