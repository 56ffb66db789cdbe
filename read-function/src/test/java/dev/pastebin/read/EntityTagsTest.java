package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EntityTagsTest {

    private static final String HASH = "ab".repeat(32);

    @Test
    void theTagIsTheQuotedHashAndTheJsonViewHasItsOwn() {
        assertEquals("\"" + HASH + "\"", EntityTags.of(HASH, false));
        assertNotEquals(EntityTags.of(HASH, false), EntityTags.of(HASH, true));
    }

    @Test
    void ifNoneMatchComparesListsWildcardsAndWeakTags() {
        String etag = EntityTags.of(HASH, false);
        assertTrue(EntityTags.noneMatchHits(etag, etag));
        assertTrue(EntityTags.noneMatchHits("\"other\", " + etag, etag));
        assertTrue(EntityTags.noneMatchHits("W/" + etag, etag));
        assertTrue(EntityTags.noneMatchHits("*", etag));
        assertFalse(EntityTags.noneMatchHits(null, etag));
        assertFalse(EntityTags.noneMatchHits("", etag));
        assertFalse(EntityTags.noneMatchHits(HASH, etag), "unquoted is not the tag");
        assertFalse(EntityTags.noneMatchHits(EntityTags.of(HASH, true), etag));
    }
}
