package dev.pastebin.read;

import io.micronaut.core.annotation.Nullable;

/**
 * Strong entity tags from the content hash. A paste never changes, so the tag of a representation never
 * changes either; the JSON view is a different representation and gets its own tag.
 */
final class EntityTags {

    private EntityTags() {}

    static String of(String contentSha256, boolean json) {
        return "\"" + contentSha256 + (json ? "-json" : "") + "\"";
    }

    /**
     * RFC 9110 If-None-Match: a list of tags or {@code *}, compared weakly (a {@code W/} prefix is ignored).
     */
    static boolean noneMatchHits(@Nullable String ifNoneMatch, String etag) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return false;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.equals("*")) {
                return true;
            }
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
