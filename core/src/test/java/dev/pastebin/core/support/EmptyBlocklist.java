package dev.pastebin.core.support;

import dev.pastebin.core.moderation.BlockedContent;
import dev.pastebin.core.moderation.ContentBlocklist;
import java.util.List;

/** A blocklist with nothing on it, for unit tests that build a service by hand. */
public final class EmptyBlocklist implements ContentBlocklist {

    @Override
    public boolean existsById(String sha256) {
        return false;
    }

    @Override
    public int add(String sha256, String reason, String addedBy) {
        throw new UnsupportedOperationException("an empty blocklist stays empty");
    }

    @Override
    public int remove(String sha256) {
        return 0;
    }

    @Override
    public List<BlockedContent> listAfter(String after, int limit) {
        return List.of();
    }
}
