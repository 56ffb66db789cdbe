package dev.pastebin.api.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pastebin.core.access.Owner;
import dev.pastebin.core.paste.InvalidPageCursorException;
import dev.pastebin.core.paste.InvalidPageLimitException;
import dev.pastebin.core.paste.PasteStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The owner's listing's page requests: the limit's bounds, the cursor's round trip and what it refuses. */
class PageRequestTest {

    @Test
    void noLimitIsTheDefaultAndNoCursorTheFirstPage() {
        PageRequest request = PageRequest.of(null, null);
        assertEquals(PageRequest.DEFAULT_LIMIT, request.limit());
        assertNull(request.after());
        assertEquals(1, PageRequest.of("1", null).limit());
        assertEquals(PageRequest.MAX_LIMIT, PageRequest.of("200", null).limit());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "201", "-1", "", "abc", "1.5", "99999999999999999999", " 5", "+5"})
    void aLimitOutsideOneTo200OrNoWholeNumberIsRefused(String limit) {
        assertThrows(InvalidPageLimitException.class, () -> PageRequest.of(limit, null));
    }

    @Test
    void aCursorRoundTripsToTheMicrosecond() {
        PageCursor cursor = new PageCursor(Instant.parse("2026-12-06T16:00:00.123456789Z"), "aB3xYz9QkLm");
        PageCursor parsed = PageCursor.parse(cursor.encode());
        assertEquals(Instant.parse("2026-12-06T16:00:00.123456Z"), parsed.createdAt());
        assertEquals("aB3xYz9QkLm", parsed.shortCode());
        assertEquals(cursor, PageRequest.of(null, cursor.encode()).after());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not base64!", "bm90IGEgY3Vyc29y", "MTIzLmFiYw"})
    void aCursorNoPageGaveIsRefused(String after) {
        assertThrows(InvalidPageCursorException.class, () -> PageRequest.of(null, after));
    }

    @Test
    void anOverlongCursorIsRefusedUnread() {
        String encoded = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(("1." + "a".repeat(60)).getBytes(StandardCharsets.US_ASCII));
        assertThrows(InvalidPageCursorException.class, () -> PageCursor.parse(encoded));
        assertThrows(InvalidPageCursorException.class, () -> PageCursor.parse("A".repeat(PageCursor.MAX_LENGTH + 1)));
    }

    @Test
    void eachOwnerKindListsByItsOwnColumn() {
        assertEquals(
                "SELECT short_code, status, created_at, expires_at, size_bytes, read_once FROM pastes"
                        + " WHERE owner_key_id = ? AND (created_at, short_code) < (?, ?)"
                        + " ORDER BY created_at DESC, short_code DESC LIMIT ?",
                ListOwnedPastesService.statement(new Owner.ApiKey(UUID.randomUUID()), true));
        assertEquals(
                "SELECT short_code, status, created_at, expires_at, size_bytes, read_once FROM pastes"
                        + " WHERE user_id = ? ORDER BY created_at DESC, short_code DESC LIMIT ?",
                ListOwnedPastesService.statement(new Owner.Subject("user-1"), false));
    }

    @Test
    void theStateIsWhatReadersFind() {
        Instant now = Instant.parse("2026-12-06T16:00:00Z");
        assertEquals(OwnedPaste.State.READY, ListOwnedPastesService.stateOf(PasteStatus.PROCESSED, null, now));
        assertEquals(
                OwnedPaste.State.IN_PROGRESS,
                ListOwnedPastesService.stateOf(PasteStatus.IN_PROGRESS, now.plusSeconds(1), now));
        assertEquals(OwnedPaste.State.EXPIRED, ListOwnedPastesService.stateOf(PasteStatus.PROCESSED, now, now));
        assertEquals(
                OwnedPaste.State.FAILED, ListOwnedPastesService.stateOf(PasteStatus.FAILED, now.minusSeconds(1), now));
    }
}
