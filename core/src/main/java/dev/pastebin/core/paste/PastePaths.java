package dev.pastebin.core.paste;

import java.util.List;

/**
 * Every path a cached read route serves a paste under, the one list an edge invalidation of that paste names
 * (docs/design.md, "Takedowns and the blocklist"): {@code /pastes/{code}}, the web page {@code /p/{code}}, and the
 * haste routes {@code /{code}}, {@code /raw/{code}} and {@code /documents/{code}}. Each ends in a wildcard: the
 * edge's cache key holds the query string, and the haste routes take the code with any suffix from its first dot
 * ({@code /raw/{code}.py}), so a variant is any path that starts with one of these. A wildcard also invalidates
 * other codes that start with this one (a legacy 8-character code is a prefix of longer ones): a cache miss for
 * them, nothing worse. CloudFront allows 15 wildcard paths in progress at a time: three takedowns' worth, later
 * ones are retried by the moderation outbox until one finishes.
 */
public final class PastePaths {

    private PastePaths() {}

    /** The paths to invalidate at the edge when the paste {@code shortCode} is removed. */
    public static List<String> edgePaths(String shortCode) {
        return List.of(
                "/pastes/" + shortCode + "*",
                "/p/" + shortCode + "*",
                "/" + shortCode + "*",
                "/raw/" + shortCode + "*",
                "/documents/" + shortCode + "*");
    }
}
