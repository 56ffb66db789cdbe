package dev.pastebin.read;

import dev.pastebin.core.paste.ContentHash;
import io.micronaut.core.io.ResourceResolver;
import io.micronaut.http.MediaType;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The web pages' files (classpath {@code web/}), read once at start-up (so SnapStart's snapshot holds them) and
 * served only from this allow-list: a request can never name any other classpath resource.
 */
@Singleton
public class WebAssets {

    static final String CREATE_PAGE = "index.html";
    static final String VIEW_PAGE = "view.html";
    static final String JAVASCRIPT = "text/javascript";
    static final String CSS = "text/css";

    /** Each file the pages use, with its type. JavaScript is text/javascript (RFC 9239). */
    private static final Map<String, String> FILES = Map.of(
            CREATE_PAGE, "text/html; charset=utf-8",
            VIEW_PAGE, "text/html; charset=utf-8",
            "pastebin.css", CSS + "; charset=utf-8",
            "api.js", JAVASCRIPT + "; charset=utf-8",
            "create.js", JAVASCRIPT + "; charset=utf-8",
            "view.js", JAVASCRIPT + "; charset=utf-8");

    /** A file ready to serve: its bytes, type and strong entity tag (the SHA-256 of the bytes). */
    public record Asset(String name, MediaType contentType, byte[] bytes, String etag) {
        public boolean isPage() {
            return contentType.getName().equals(MediaType.TEXT_HTML);
        }
    }

    private final Map<String, Asset> assets;

    public WebAssets(ResourceResolver resources) {
        this.assets = FILES.entrySet().stream()
                .map(file -> load(resources, file.getKey(), file.getValue()))
                .collect(Collectors.toUnmodifiableMap(Asset::name, Function.identity()));
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

    private static Asset load(ResourceResolver resources, String name, String contentType) {
        try (InputStream in = resources.getResourceAsStream("classpath:web/" + name)
                .orElseThrow(() -> new IllegalStateException("web/" + name + " is missing from the artifact"))) {
            byte[] bytes = in.readAllBytes();
            return new Asset(name, MediaType.of(contentType), bytes, "\"" + ContentHash.sha256Hex(bytes) + "\"");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
